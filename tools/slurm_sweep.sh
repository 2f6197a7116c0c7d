#!/usr/bin/env bash
# One shard of an `fbosim sweep` per Slurm array task; each shard writes DIR/shard-I (one
# directory per shard: a sweep directory is locked by the sweep that uses it). Then merge.
#
#   jid=$(sbatch --parsable --array=1-8 tools/slurm_sweep.sh CONFIG DIR [fbosim sweep options])
#   sbatch --dependency=afterany:$jid tools/slurm_sweep.sh --merge DIR
#
# The array must be one contiguous range (1-8 or 0-7: the shard is the task's rank in it);
# K = SLURM_ARRAY_TASK_COUNT. Each task runs SLURM_CPUS_PER_TASK points at once, one thread
# each, unless --jobs/--threads are given. Re-submitting the same array resumes: finished
# points are skipped. `--merge` exits non-zero if a point is missing (a failed task): look at
# its slurm-*.out, re-submit that task (sbatch --array=I ...), merge again.
#SBATCH --job-name=fbosim-sweep
#SBATCH --cpus-per-task=8
#SBATCH --time=04:00:00
#SBATCH --output=slurm-%A_%a.out
set -euo pipefail
fbosim=${FBOSIM:-build/fbosim}
if [ "${1:-}" = "--merge" ]; then
  dir=${2:?usage: slurm_sweep.sh --merge DIR}
  exec "$fbosim" merge "$dir"/shard-* --out "$dir"
fi
config=${1:?usage: sbatch --array=1-K slurm_sweep.sh CONFIG DIR [sweep options]}
dir=${2:?usage: sbatch --array=1-K slurm_sweep.sh CONFIG DIR [sweep options]}
shift 2
: "${SLURM_ARRAY_TASK_ID:?not an array task: submit with sbatch --array=1-K}"
count=${SLURM_ARRAY_TASK_COUNT:?SLURM_ARRAY_TASK_COUNT is unset (Slurm >= 17.11 sets it)}
shard=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-1} + 1))
extra=()
case " $* " in
  *" --jobs"* | *" --threads"*) ;;
  *) extra=(--jobs "${SLURM_CPUS_PER_TASK:-1}" --threads 1) ;;
esac
exec "$fbosim" sweep "$config" --shard "$shard/$count" --out "$dir/shard-$shard" "${extra[@]}" \
  --quiet "$@"
