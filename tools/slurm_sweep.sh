#!/usr/bin/env bash
# One shard of an `fbosim sweep` per Slurm array task: task I of an array of K runs shard I/K into
# DIR/shard-I (one directory per shard: a sweep directory is locked by the sweep that uses it).
# Then merge. From the repository root (or with FBOSIM=/path/to/fbosim):
#
#   jid=$(sbatch --parsable --array=1-K tools/slurm_sweep.sh K CONFIG DIR [fbosim sweep options])
#   sbatch --dependency=afterany:$jid tools/slurm_sweep.sh --merge DIR
#
# K is given explicitly and the shard is SLURM_ARRAY_TASK_ID itself, so the array must be 1-K.
# Re-submitting task I alone then runs shard I again (its finished points are skipped):
#
#   sbatch --array=I tools/slurm_sweep.sh K CONFIG DIR [the same options]
#
# (The array's own size and minimum change on such a re-submission, so they are not used.)
# `--merge` exits non-zero naming the missing points when a task failed: read its
# DIR/slurm-logs/slurm-JOB_I.out, re-submit task I as above, then merge again.
#
# Logs: each task writes its output to DIR/slurm-logs/slurm-JOB_TASK.out (the merge's TASK is
# 4294967294, Slurm's %a for a job that is not an array), beside the results, never into the
# directory it was submitted from (the checkout); Slurm's own --output is /dev/null. A task that
# cannot tell DIR (missing arguments) writes slurm-JOB_TASK.out in the submission directory.
#
# The program is snapshotted: the first task copies it (the binary, or the whole bundle of
# tools/bundle.sh when FBOSIM is one) into DIR/program/ under a temporary name and renames it
# there, once per sweep; every task and the merge run DIR/program/fbosim, so a rebuild while the
# array runs (or before a failed task is re-submitted) cannot mix two builds. To snapshot the
# build of submission time rather than of the first task's start, run
#
#   tools/slurm_sweep.sh --snapshot DIR
#
# before sbatch. To run a new build on the same DIR, remove DIR/program (the points the old
# build made then run again: a point is reused only by the build that made it).
#
# A config whose objective runs a program or imports a module (objective.family command or
# python) needs consent (docs/USER_GUIDE.md, "A config is code"): --allow-exec among the sweep
# options, or FBOSIM_ALLOW_EXEC=1 exported before sbatch (sbatch passes the environment on by
# default; with --export=NONE give --export=FBOSIM_ALLOW_EXEC=1).
#
# Give your site's --partition and --account on the sbatch line, --mem from the estimate of
# `fbosim config CONFIG --set ... --resources` (times the points a task runs at once, with a
# margin), and --time from a measured point (the default below is 4 hours): docs/SWEEPS.md,
# "The sbatch options to set".
#
# CPUs: one per task by default (fits any node; Slurm runs as many tasks at once as there are
# free CPUs), running the shard's points one at a time. `sbatch --cpus-per-task=C` (C at most a
# node's CPUs, or the array stays pending for ever) runs C points at once, one thread each; with
# `--threads T` among the sweep options, C / T points of T threads; `--jobs`/`--threads` given
# together are used as they are.
#SBATCH --job-name=fbosim-sweep
#SBATCH --time=04:00:00
#SBATCH --output=/dev/null
# --help prints the comment above.
case ${1:-} in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; /^#SBATCH/d; s/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
fbosim=${FBOSIM:-build/fbosim}
usage="usage: sbatch --array=1-K slurm_sweep.sh K CONFIG DIR [sweep options] | slurm_sweep.sh --merge DIR | slurm_sweep.sh --snapshot DIR"
# log_into FOLDER: under Slurm, this task's stdout and stderr go to FOLDER/slurm-JOB_TASK.out.
log_into() {
  [ -n "${SLURM_JOB_ID:-}" ] || return 0
  mkdir -p "$1"
  exec >>"$1/slurm-${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}_${SLURM_ARRAY_TASK_ID:-4294967294}.out" 2>&1
}
# DIR/program/fbosim, made from $fbosim by the first caller: copied to a temporary directory
# beside it and renamed (rename(2) is atomic, also on NFS; a second task's rename fails on the
# existing directory and that task uses the winner's). Sets `program`.
snapshot() {
  local dir=$1 source tmp
  program=$dir/program/fbosim
  if [ ! -e "$dir/program" ]; then
    [ -f "$fbosim" ] && [ -x "$fbosim" ] ||
      { echo "slurm_sweep.sh: $fbosim is not an executable file (build it, or set FBOSIM)" >&2; exit 1; }
    mkdir -p "$dir"
    tmp=$(mktemp -d "$dir/.program.XXXXXX")
    chmod 755 "$tmp"
    source=$(realpath "$fbosim")
    if [ -f "$(dirname "$source")/.fbosim-bundle" ]; then  # a bundle: its launcher and lib/
      cp -a "$(dirname "$source")/." "$tmp/"
    else
      cp -p "$source" "$tmp/fbosim"
    fi
    printf 'snapshot of %s\nmade by %s at %s\n%s\n' "$source" \
      "job ${SLURM_JOB_ID:-none} task ${SLURM_ARRAY_TASK_ID:-none} on $(uname -n)" \
      "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(sha256sum "$tmp/fbosim" | cut -d' ' -f1)  fbosim" \
      >"$tmp/SNAPSHOT"
    if mv -T "$tmp" "$dir/program" 2>/dev/null; then
      echo "slurm_sweep.sh: $fbosim snapshotted into $dir/program" >&2
    else
      rm -rf "$tmp"  # another task made it first
    fi
  fi
  [ -x "$program" ] ||
    { echo "slurm_sweep.sh: $dir/program holds no executable fbosim: remove it and submit again" >&2; exit 1; }
  if [ -f "$fbosim" ] && [ -f "$dir/program/SNAPSHOT" ] && ! cmp -s "$fbosim" "$program" &&
     [ ! -f "$dir/program/.fbosim-bundle" ]; then
    echo "slurm_sweep.sh: note: $fbosim differs from this sweep's snapshot; running the snapshot" \
      "$program (remove $dir/program to run the new build; its points then run again)" >&2
  fi
}

if [ "${1:-}" = "--snapshot" ]; then
  snapshot "${2:?$usage}"
  echo "$program"
  exit 0
fi
if [ "${1:-}" = "--merge" ]; then
  [ -n "${2:-}" ] || log_into .
  dir=${2:?$usage}
  log_into "$dir/slurm-logs"
  # A task that failed before its sweep started leaves no sweep_plan.csv (or no directory):
  # leave it out, so that merge names its points as missing instead of refusing the input.
  shards=()
  for d in "$dir"/shard-*; do
    if [ -f "$d/sweep_plan.csv" ]; then
      shards+=("$d")
    elif [ -e "$d" ]; then
      echo "slurm_sweep.sh: $d holds no sweep_plan.csv (its task failed early); left out" >&2
    fi
  done
  ((${#shards[@]})) || { echo "slurm_sweep.sh: no shard of a sweep in $dir/shard-*" >&2; exit 1; }
  snapshot "$dir"
  exec "$program" merge "${shards[@]}" --out "$dir"
fi
[ -n "${3:-}" ] || log_into .
count=${1:?$usage}
config=${2:?$usage}
dir=${3:?$usage}
log_into "$dir/slurm-logs"
shift 3
[[ $count =~ ^[1-9][0-9]*$ ]] ||
  { echo "slurm_sweep.sh: K must be the array's size (a positive integer), not '$count'; $usage" >&2; exit 2; }
shard=${SLURM_ARRAY_TASK_ID:?not an array task: submit with sbatch --array=1-$count}
if ((shard < 1 || shard > count)); then
  echo "slurm_sweep.sh: array task $shard is outside 1-$count: task I runs shard I/$count," \
    "so submit --array=1-$count (or --array=I to re-run shard I)" >&2
  exit 2
fi
cpus=${SLURM_CPUS_PER_TASK:-1}
jobs="" threads=""
for ((k = 1; k <= $#; ++k)); do
  case ${!k} in
    --jobs) ((k < $#)) && j=$((k + 1)) && jobs=${!j} ;;
    --jobs=*) jobs=${!k#--jobs=} ;;
    --threads) ((k < $#)) && j=$((k + 1)) && threads=${!j} ;;
    --threads=*) threads=${!k#--threads=} ;;
  esac
done
# Fill in what is not given so that jobs x threads = the task's CPUs (fbosim would otherwise size
# itself on the whole node, not on the allocation).
extra=()
if [ -z "$jobs" ] && [ -z "$threads" ]; then
  extra=(--jobs "$cpus" --threads 1)
elif [ -z "$jobs" ] && [[ $threads =~ ^[1-9][0-9]*$ ]]; then
  extra=(--jobs $((cpus / threads > 0 ? cpus / threads : 1)))
elif [ -z "$threads" ] && [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
  extra=(--threads $((cpus / jobs > 0 ? cpus / jobs : 1)))
fi
if [[ $threads =~ ^[1-9][0-9]*$ ]] && ((threads > cpus)); then
  echo "slurm_sweep.sh: warning: --threads $threads on $cpus CPU(s) per task; submit with" \
    "sbatch --cpus-per-task=$threads (or more)" >&2
fi
snapshot "$dir"
exec "$program" sweep "$config" --shard "$shard/$count" --out "$dir/shard-$shard" "${extra[@]}" \
  --quiet "$@"
