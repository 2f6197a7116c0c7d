#!/usr/bin/env bash
# Issue 39 sec. 3: a sweep (and a run) whose disk fills at any point leaves a directory that the
# same command resumes, to outputs byte-identical to an uninterrupted run's. The disk is a
# size-limited tmpfs in a private mount namespace (unshare -m; root only, else skipped: 77),
# filled at every 4 KiB step from almost empty to large enough: each failed attempt must name
# the full disk, and after the disk is enlarged (remount) the same command must succeed.
#   usage: disk_full_resume_test.sh FBOSIM
set -euo pipefail
fbosim=$(readlink -f "$1")
if [ -z "${FBOSIM_DISK_FULL_NS:-}" ]; then
  if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
    echo "skipped: needs root and unshare -m for a size-limited tmpfs"
    exit 77
  fi
  FBOSIM_DISK_FULL_NS=1 exec unshare -m bash "$0" "$@"
fi
work=$(mktemp -d)
trap 'umount "$work/disk" 2>/dev/null || true; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$work"
cat >cfg.yaml <<'YAML'
rounds: 3
runs: 3
objective: {grid_points: 100}
agents: {count: 4, init_points: 2}
rff: {features: 10}
local_ts: {features: 10}
server: {sampling_rate: 0.5}
sweep:
  server.noise_multiplier: [1, 2]
YAML
# sweep.csv without its wall-time column (the simulator's fields hold no commas).
no_seconds() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seconds") s = i }
           { out = ""; for (i = 1; i <= NF; i++) if (i != s) out = out $i ","; print out }' "$1"
}
# same WHOLE DIR: the outputs that do not depend on the clock are byte-identical.
same() {
  local f p
  for f in trace.csv server.csv summary.csv config.resolved.yaml; do
    if [ -f "$1/$f" ] || [ -f "$2/$f" ]; then cmp -s "$1/$f" "$2/$f" || fail "$2/$f differs"; fi
  done
  for p in "$1"/*/; do
    [ -d "$p" ] || continue
    p=$(basename "$p")
    for f in trace.csv server.csv summary.csv config.resolved.yaml; do
      cmp -s "$1/$p/$f" "$2/$p/$f" || fail "$2/$p/$f differs"
    done
  done
  if [ -f "$1/sweep.csv" ]; then
    [ "$(no_seconds "$1/sweep.csv")" = "$(no_seconds "$2/sweep.csv")" ] || fail "$2/sweep.csv differs"
  fi
  return 0
}
"$fbosim" sweep cfg.yaml --quiet --jobs 1 --threads 1 --out whole_sweep
"$fbosim" run cfg.yaml --quiet --threads 1 --out whole_run
mkdir disk
declare -A jobs=([sweep]="--jobs 1" [run]="")
for command in sweep run; do
  need=$(($(du -sk "whole_$command" | cut -f1) + 64))
  failed=0
  for ((size = 4; size <= need; size += 4)); do
    mount -t tmpfs -o size=${size}k tmpfs disk
    if "$fbosim" "$command" cfg.yaml --quiet ${jobs[$command]} --threads 1 --out disk/out 2>err.txt \
      >/dev/null; then
      same "whole_$command" disk/out
    else
      failed=$((failed + 1))
      grep -q "No space left on device" err.txt ||
        fail "$command on ${size} KiB: not the full disk: $(cat err.txt)"
      mount -o remount,size=64m disk
      "$fbosim" "$command" cfg.yaml --quiet ${jobs[$command]} --threads 1 --out disk/out 2>err.txt \
        >/dev/null || fail "$command filled at ${size} KiB: the same command then fails: $(cat err.txt)"
      same "whole_$command" disk/out
    fi
    umount disk
  done
  ((failed >= 3)) || fail "$command: the disk filled only $failed time(s)"
  echo "$command: the disk filled at $failed sizes; every one resumed to identical outputs"
done
