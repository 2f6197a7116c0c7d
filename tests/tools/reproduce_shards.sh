#!/usr/bin/env bash
# CTest "tools: reproduce.sh in shards ...": tools/reproduce.sh at tiny scale on a small figure
# set (FTS Fig. 1a and DP-FTS-DE Fig. 2c, 7 curves), run whole into one results root and in 2
# shards into another, must give the same results: every CSV of every curve (but timing.csv,
# wall times) byte for byte.
#   local  the two shards run at once on this machine (as an array would), then --plot-only.
#          Checks too: --plan prints the expected time and each task's shard; the shards split
#          the tasks (each runs once); a shard draws nothing; --plot-only refuses, naming the
#          task, while a task has not finished; the shards run the program snapshot.
#   slurm  the sbatch array and the dependent --plot-only job of docs/REPRODUCTION.md on a
#          private one-node Slurm cluster (tools/slurm_cluster.sh; exit 77, skipped, only when
#          it cannot start here: Slurm missing and not root).
# Usage: reproduce_shards.sh FBOSIM_BINARY local|slurm
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
built=$(realpath "${1:?usage: reproduce_shards.sh FBOSIM_BINARY local|slurm}")
mode=${2:?usage: reproduce_shards.sh FBOSIM_BINARY local|slurm}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fbosim-shards.XXXXXX")
state=$tmp/cluster
trap '[ "$mode" != slurm ] || "$root/tools/slurm_cluster.sh" stop "$state" || true; rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  local f
  for f in "$tmp"/*.out "$tmp"/*.err "$tmp"/s/logs/slurm-*.out; do
    [ -s "$f" ] && { echo "--- $f (last lines)" >&2; tail -n 15 "$f" >&2; }
  done
  exit 1
}
export FBOSIM_BIN=$built FBOSIM_DATA=$tmp/no-data
only=fts_fig1a,fig2c
repro=("$root/tools/reproduce.sh" --tiny --only "$only")

# same_results A B: every CSV of every curve directory of A equals B's (timing.csv aside).
same_results() {
  local a=$1 b=$2 n=0 f
  while IFS= read -r f; do
    [ -f "$b/$f" ] || fail "$b/$f missing"
    cmp -s "$a/$f" "$b/$f" || fail "$a/$f and $b/$f differ"
    n=$((n + 1))
  done < <(cd "$a" && find . -name '*.csv' ! -name timing.csv ! -path './figures/*' | sort)
  ((n >= 21)) || fail "only $n CSVs compared in $a"
  [ "$(cd "$a" && find . -name '*.csv' ! -name timing.csv ! -path './figures/*' | sort)" = \
    "$(cd "$b" && find . -name '*.csv' ! -name timing.csv ! -path './figures/*' | sort)" ] ||
    fail "$a and $b hold different CSVs"
  echo "$n CSVs identical"
}

# The whole run, the reference.
"${repro[@]}" --jobs 2 --results "$tmp/r0" >"$tmp/r0.out" 2>"$tmp/r0.err" ||
  fail "reproduce.sh (whole) exited $?"
grep -q "expected .* of CPU" "$tmp/r0.out" || fail "no expected time printed before the run"
ntasks=$(grep -c '^reproduce.sh: [a-z]*:.* s$' "$tmp/r0.out")
((ntasks == 7)) || fail "whole run: $ntasks tasks, want 7"

if [ "$mode" = local ]; then
  # --plan --shard: the tasks, their predicted CPU-seconds and shard, the total; nothing run.
  "${repro[@]}" --plan --shard 1/2 --results "$tmp/p" >"$tmp/plan.out" 2>&1 || fail "--plan exited $?"
  grep -q "expected .* of CPU" "$tmp/plan.out" || fail "--plan printed no expected time"
  [ "$(grep -c 'CPU-s  scaled  shard [12]$' "$tmp/plan.out")" = 7 ] || fail "--plan: not 7 tasks with a shard"
  [ ! -e "$tmp/p" ] || fail "--plan wrote into its results root"
  # The two shards at once, as an array's tasks would run.
  "${repro[@]}" --shard 1/2 --results "$tmp/r1" >"$tmp/s1.out" 2>"$tmp/s1.err" & p1=$!
  "${repro[@]}" --shard 2/2 --results "$tmp/r1" >"$tmp/s2.out" 2>"$tmp/s2.err" & p2=$!
  wait "$p1" || fail "shard 1/2 exited non-zero"
  wait "$p2" || fail "shard 2/2 exited non-zero"
  ran=$(cat "$tmp/s1.out" "$tmp/s2.out" | sed -n 's/^reproduce.sh: \([a-z]*:[^ ]*\) .* s$/\1/p' | sort)
  whole=$(sed -n 's/^reproduce.sh: \([a-z]*:[^ ]*\) .* s$/\1/p' "$tmp/r0.out" | sort)
  [ "$ran" = "$whole" ] || fail "the shards ran [$ran], the whole run [$whole]"
  for s in 1 2; do
    grep -q '^reproduce.sh: [a-z]*:.* s$' "$tmp/s$s.out" || fail "shard $s ran no task"
  done
  [ ! -e "$tmp/r1/figures" ] || fail "a shard drew figures"
  [ -x "$tmp/r1/program/fbosim" ] && cmp -s "$tmp/r1/program/fbosim" "$built" ||
    fail "no program snapshot in $tmp/r1/program"
  grep -rqs "^command: $tmp/r1/program/fbosim run" "$tmp"/r1/*/provenance.yaml ||
    fail "the shards did not run the snapshot"
  # --plot-only refuses while a task has not finished, naming it.
  done_file=$(find "$tmp/r1/logs" -name '*.done' | sort | sed -n 1p)
  mv "$done_file" "$done_file.x"
  "${repro[@]}" --plot-only --results "$tmp/r1" >"$tmp/po.out" 2>"$tmp/po.err" &&
    fail "--plot-only with an unfinished task succeeded"
  grep -q "1 of 7 task(s) have not finished" "$tmp/po.err" || fail "--plot-only did not name the unfinished task"
  [ ! -e "$tmp/r1/figures" ] || fail "--plot-only drew figures with a task unfinished"
  mv "$done_file.x" "$done_file"
  "${repro[@]}" --plot-only --results "$tmp/r1" >"$tmp/po.out" 2>"$tmp/po.err" ||
    fail "--plot-only exited $?"
  for fig in fts_fig1a fig2c; do
    [ -s "$tmp/r1/figures/$fig.png" ] || fail "--plot-only drew no $fig.png"
  done
  grep -q "fig2c" "$tmp/r1/FIDELITY.md" || fail "--plot-only checked no claims"
  same_results "$tmp/r0" "$tmp/r1"
  # Bad --shard values are usage errors.
  for bad in 0/2 3/2 2 a/b; do
    "${repro[@]}" --shard "$bad" --results "$tmp/bad" >/dev/null 2>&1 && fail "--shard $bad accepted"
    [ $? = 2 ] || fail "--shard $bad: exit not 2"
  done
  echo "reproduce.sh in 2 local shards and --plot-only equals the whole run"
  exit 0
fi

# slurm: the documented array and the dependent --plot-only job.
rc=0
"$root/tools/slurm_cluster.sh" start "$state" $$ >/dev/null || rc=$?
if ((rc == 77)); then
  echo "SKIP: no Slurm cluster can be started here (see the line above)" >&2
  exit 77
fi
((rc == 0)) || fail "tools/slurm_cluster.sh start exited $rc"
export SLURM_CONF=$state/slurm.conf PATH=/usr/sbin:/usr/bin:$PATH
cd "$tmp"
mkdir -p s/logs
# shellcheck disable=SC2016  # $SLURM_ARRAY_TASK_ID is the job's
jid=$(sbatch --parsable --array=1-2 --output=s/logs/slurm-%A_%a.out \
  --wrap "${repro[*]} --results $tmp/s --shard \$SLURM_ARRAY_TASK_ID/2") || fail "sbatch (array)"
pid=$(sbatch --parsable --dependency=afterany:"$jid" --output=s/logs/slurm-%j.out \
  --wrap "${repro[*]} --results $tmp/s --plot-only") || fail "sbatch (--plot-only)"
deadline=$((SECONDS + 300))
while [ -n "$(squeue -h -j "$jid,$pid" 2>/dev/null)" ]; do
  ((SECONDS < deadline)) || fail "jobs still queued after 300 s: $(squeue -h -j "$jid,$pid")"
  sleep 0.5
done
for t in 1 2; do
  grep -q "shard $t/2 done" "s/logs/slurm-${jid}_$t.out" || fail "array task $t did not finish its shard"
done
[ -s "s/logs/slurm-$pid.out" ] && grep -q "total .* s (tiny scale" "s/logs/slurm-$pid.out" ||
  fail "the --plot-only job did not finish"
[ -s s/figures/fig2c.png ] || fail "the --plot-only job drew no fig2c.png"
same_results "$tmp/r0" "$tmp/s"
echo "reproduce.sh as a 2-task sbatch array and a dependent --plot-only job equals the whole run"
