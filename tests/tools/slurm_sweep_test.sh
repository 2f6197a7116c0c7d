#!/usr/bin/env bash
# CTest "tools: slurm_sweep.sh on a one-node Slurm cluster equals a local sweep": starts a private
# Slurm cluster (tools/slurm_cluster.sh; installs slurm-wlm and munge when root and missing),
# then runs the commands of docs/SWEEPS.md on a 2 x 2 grid in 2 shards:
#  1. the array and the dependent merge, with shard 2 made to fail (a file where its directory
#     goes): task 1 must complete, task 2 fail, the merge fail naming the 2 missing points;
#  2. the documented re-submission of task 2 alone (`--array=2`): it must write shard 2 (points
#     1 and 3) and leave shard 1 untouched;
#  3. the merge again; then a local `fbosim sweep` of the same grid, and every point's trace.csv,
#     server.csv and summary.csv must equal the cluster's byte for byte, and sweep.csv too except
#     its `seconds` (wall time) and `dir` (shard-I/ prefix) columns.
# The program snapshot (issue 28 sec. 6): the tasks run a copy of FBOSIM_BINARY, which the first
# task snapshots into D/program; before step 2 that copy is replaced by a program that fails
# (a rebuild mid-array): the re-submitted task and the merges must still succeed, running the
# snapshot, and every shard's provenance.yaml must name D/program/fbosim as the program.
# The daemons are stopped on exit (trap), and by the cluster's watchdog if this script is killed.
# Exit 77 (skipped) only when the cluster cannot start here: Slurm missing and not root.
# Usage: slurm_sweep_test.sh FBOSIM_BINARY
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
built=$(realpath "${1:?usage: slurm_sweep_test.sh FBOSIM_BINARY}")
python=${FBOSIM_PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fbosim-slurm.XXXXXX")
# The tasks' program: a copy, replaced mid-way below as a rebuild would replace it.
export FBOSIM=$tmp/bin/fbosim
mkdir "$tmp/bin"
cp "$built" "$FBOSIM"
state=$tmp/cluster
trap '"$root/tools/slurm_cluster.sh" stop "$state" || true; rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  local f
  for f in "$tmp"/slurm-*.out "$tmp"/D/slurm-logs/slurm-*.out "$state"/slurmctld.log "$state"/slurmd.log; do
    [ -s "$f" ] && { echo "--- $f (last lines)" >&2; tail -n 20 "$f" >&2; }
  done
  exit 1
}

rc=0
"$root/tools/slurm_cluster.sh" start "$state" $$ >/dev/null || rc=$?
if ((rc == 77)); then
  echo "SKIP: no Slurm cluster can be started here (see the line above)" >&2
  exit 77
fi
((rc == 0)) || fail "tools/slurm_cluster.sh start exited $rc"
export SLURM_CONF=$state/slurm.conf
export PATH=/usr/sbin:/usr/bin:$PATH

# Waits (at most 120 s) until none of the given jobs is pending or running; fails at once on a
# job that can never run (it asks for more than the node has: reason PartitionConfig).
wait_jobs() {
  local ids queue deadline=$((SECONDS + 120))
  ids=$(IFS=,; echo "$*")
  while queue=$(squeue -h -j "$ids" -o '%i %T %r' 2>/dev/null) && [ -n "$queue" ]; do
    [[ $queue != *PartitionConfig* ]] || fail "jobs that can never run on this node: $queue"
    ((SECONDS < deadline)) || fail "jobs $ids still queued after 120 s: $queue"
    sleep 0.2
  done
}
# The state of job $1 (of its array task $2 when given), as slurmctld still holds it.
job_state() {
  local sel=' JobState'
  [ -z "${2:-}" ] || sel=" ArrayTaskId=$2 .* JobState"
  scontrol -o show job "$1" | sed -nE "s/.*$sel=([A-Z_]+) .*/\1/p"
}
# path mtime size sha256 of every file under $1, sorted.
snapshot() {
  (cd "$1" && find . -type f -printf '%p %T@ %s ' -exec sha256sum {} \; | sort)
}

cd "$tmp"  # the jobs' working directory: D lands here, and the logs under D/slurm-logs
config=$root/configs/dp_fts_de/synthetic.yaml
sweep=$root/tools/slurm_sweep.sh
# shellcheck disable=SC2054  # the commas are grid values
opts=(--set agents.count=6 --set rounds=4 --runs 1
      --grid server.noise_multiplier=1,2 --grid server.sampling_rate=0.25,0.5)

# 1. The array of 2 shards and the dependent merge, as documented; shard 2 cannot be created.
mkdir D
: >D/shard-2
jid=$(sbatch --parsable --array=1-2 "$sweep" 2 "$config" D "${opts[@]}") || fail "sbatch (array)"
mid=$(sbatch --parsable --dependency=afterany:"$jid" "$sweep" --merge D) || fail "sbatch (merge)"
wait_jobs "$jid" "$mid"
[ "$(job_state "$jid" 1)" = COMPLETED ] || fail "task 1: $(job_state "$jid" 1), want COMPLETED"
[ "$(job_state "$jid" 2)" = FAILED ] || fail "task 2: $(job_state "$jid" 2), want FAILED"
[ "$(job_state "$mid")" = FAILED ] || fail "merge with a failed shard: $(job_state "$mid"), want FAILED"
grep -q "2 point(s) missing" D/slurm-logs/slurm-"$mid"_*.out ||
  fail "the merge did not name the 2 missing points in D/slurm-logs/"
# Issue 28: the logs lie under the sweep's directory, none in the submission directory.
[ -f D/slurm-logs/slurm-"$jid"_1.out ] || fail "no D/slurm-logs/slurm-${jid}_1.out"
! compgen -G "slurm-*.out" >/dev/null || fail "logs in the submission directory: $(echo slurm-*.out)"

# The snapshot: made once, a copy of the program, run by task 1 (its provenance.yaml).
[ -x D/program/fbosim ] && cmp -s D/program/fbosim "$built" || fail "D/program/fbosim is not a copy of the program"
[ -z "$(find D -maxdepth 1 -name '.program.*')" ] || fail "temporary snapshots left: $(find D -maxdepth 1 -name '.program.*')"
grep -q "^command: D/program/fbosim sweep " D/shard-1/provenance.yaml ||
  fail "shard 1 did not run the snapshot: $(grep '^command:' D/shard-1/provenance.yaml)"
snap_before=$(snapshot D/program)

# A rebuild between the array and the re-submission: the tasks must keep running the snapshot.
printf '#!/bin/sh\necho "the rebuilt program must not run" >&2\nexit 3\n' >"$FBOSIM.new"
chmod +x "$FBOSIM.new"
mv "$FBOSIM.new" "$FBOSIM"

# 2. Re-submit the failed task alone: it must run shard 2/2 and touch nothing of shard 1.
rm D/shard-2
before=$(snapshot D/shard-1)
rid=$(sbatch --parsable --array=2 "$sweep" 2 "$config" D "${opts[@]}") || fail "sbatch --array=2"
wait_jobs "$rid"
[ "$(job_state "$rid" 2)" = COMPLETED ] || fail "re-submitted task 2: $(job_state "$rid" 2)"
[ "$(snapshot D/shard-1)" = "$before" ] || fail "re-submitting task 2 changed D/shard-1"
[ "$(cd D && echo shard-*)" = "shard-1 shard-2" ] || fail "shard directories: $(cd D && echo shard-*)"

grep -q "^command: D/program/fbosim sweep " D/shard-2/provenance.yaml ||
  fail "re-submitted task 2 did not run the snapshot: $(grep '^command:' D/shard-2/provenance.yaml)"
grep -rqs --include='slurm-*.out' "differs from this sweep's snapshot" . ||
  fail "no task log notes that the program differs from the snapshot"

# 3. Merge again (now complete), run the same grid locally, compare.
mid=$(sbatch --parsable "$sweep" --merge D) || fail "sbatch (merge again)"
wait_jobs "$mid"
[ "$(job_state "$mid")" = COMPLETED ] || fail "merge after the re-submission: $(job_state "$mid")"
[ "$(snapshot D/program)" = "$snap_before" ] || fail "the snapshot changed during the sweep"
"$built" sweep "$config" "${opts[@]}" --out local --quiet >/dev/null || fail "local sweep"

"$python" - D local <<'EOF' || fail "the cluster's sweep differs from the local one"
import csv, filecmp, os, sys

cluster, local = sys.argv[1], sys.argv[2]
def rows(path):
    with open(path, newline="") as f:
        r = list(csv.DictReader(f))
    return r
ok = True
def bad(msg):
    global ok
    ok = False
    print("  " + msg, file=sys.stderr)
shard_points = {s: [r["point"] for r in rows(f"{cluster}/shard-{s}/sweep.csv")] for s in (1, 2)}
if shard_points != {1: ["0", "2"], 2: ["1", "3"]}:
    bad(f"points per shard {shard_points}, want shard 1: 0 2, shard 2: 1 3")
c, l = rows(f"{cluster}/sweep.csv"), rows(f"{local}/sweep.csv")
if len(l) != 4 or len(c) != len(l):
    bad(f"{len(c)} merged and {len(l)} local rows, want 4 each")
for a, b in zip(c, l):
    shard = int(b["point"]) % 2 + 1
    if a["dir"] != f"shard-{shard}/{b['dir']}":
        bad(f"point {b['point']}: merged dir {a['dir']}, want shard-{shard}/{b['dir']}")
    if a.keys() != b.keys():
        bad(f"point {b['point']}: columns {list(a)} vs {list(b)}")
    for k in b:
        if k not in ("seconds", "dir") and a.get(k) != b[k]:
            bad(f"point {b['point']}: {k} = {a.get(k)} (cluster) vs {b[k]} (local)")
    for name in ("trace.csv", "server.csv", "summary.csv"):
        x, y = f"{cluster}/{a['dir']}/{name}", f"{local}/{b['dir']}/{name}"
        if not (os.path.isfile(x) and os.path.isfile(y) and filecmp.cmp(x, y, shallow=False)):
            bad(f"{x} and {y} differ")
if not ok:
    sys.exit(1)
print(f"{len(l)} points: trace.csv, server.csv, summary.csv identical; sweep.csv equal but for seconds, dir")
EOF
echo "slurm_sweep.sh on a one-node Slurm cluster: failed task re-run as shard 2 alone, merged sweep equals the local one"
