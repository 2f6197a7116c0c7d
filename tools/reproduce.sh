#!/usr/bin/env bash
# Runs every experiment the figures need, then draws them with tools/plot_figures.py: DP-FTS-DE
# (Dai, Low, Jaillet, NeurIPS 2021: Fig. 2-12) and FTS (NeurIPS 2020, ids fts_*: Fig. 1a-c on
# synthetic functions, Fig. 2a and 3a on landmine).
#
#   tools/reproduce.sh [--power | --quick | --tiny] [--only fig2a,fig3,...] [--jobs J]
#                      [--results DIR] [--log | --linear] [--bare | --no-title --no-footnote]
#                      [--format png,pdf,svg]
#   tools/reproduce.sh --landmine-study [--split-runs R] [--splits K] [--jobs J] [--plan]
#                      [--tiny]
#
# Scales (also FBOSIM_REPRO_SCALE=full|power|quick|tiny; the flags win). Each writes to its own
# results root, so the scales never mix:
#   full   the configs as they are (the paper's N, T and runs)              -> results/
#   power  the claims with statistical power: synthetic --runs 50, real-world --runs 20, the
#          configs' T (the claims look at iterations 1-40 of DP-FTS-DE's figures, 1-50 of
#          FTS's); docs/FIDELITY.md for the whole set                        -> results/power/
#   quick  synthetic: --runs 2 --set rounds=30 (the paper's N = 200: at N = 50 DP hurts more
#          and DP-FTS-DE falls behind TS);
#          real-world: --runs 1 --set rounds=20                             -> results/quick/
#   tiny   synthetic: --runs 1 --set agents.count=10 --set rounds=4
#          --set objective.grid_points=200; real-world: --runs 1 --set rounds=2
#          (a smoke test of the pipeline, not a result)                     -> results/tiny/
# FTS's landmine study also shortens its sources' TS histories at the reduced scales (quick:
# t_n = 20 and 6 runs, one per target agent; tiny: 6 agents, t_n = 3).
# --landmine-study: the landmine claims of both papers with power (issue #26), on the
# authors' split the configs use: DP-FTS-DE Fig. 3a and 3d (the 9 (q, z) of the grid and the
# TS, FTS, FTS-DE and DP-FTS-DE curves) and FTS Fig. 2a (TS, FTS, RGPE and TAF at each M, the
# corrected variants) with 30 runs each, then the headline curves of Fig. 3d (DP-FTS-DE, TS,
# FTS, FTS-DE) on K more splits (objective.split: seeded, objective.split_seed 0..K-1; default
# K = 4, so 5 splits with the authors') with R runs each (default 20), each into
# <results>/seeded<k>/; tools/claims.py then pools the claims over the splits
# (-> results/landmine_study/, its FIDELITY.md). --plan prints the tasks and the predicted time
# from the measured cost of one run (below) without running anything. With --tiny (or --quick)
# the study runs at that scale instead of 30 runs (a check of the pipeline, into its root).
# Figures go to <results root>/figures/ (PNG and vector PDF; --format chooses; --log / --linear
# set the utility axis of every figure, whose default is its paper's scale; --bare drops titles
# and footnotes: tools/plot_figures.py, docs/FIGURES.md). --only takes figure ids or prefixes
# (fig3 = fig3a-f, fig7 = fig7a,b); --jobs runs J experiments (curves) at once (each with
# nproc/J threads; results do not depend on the thread count). The real-world experiments run
# only when their data is found under ${FBOSIM_DATA:-data} (and their config exists); otherwise
# one "skipped:" line says why.
# Environment: FBOSIM_BIN (default build/fbosim), FBOSIM_DATA, FBOSIM_PYTHON (default
# /usr/bin/python3, Debian's, which has matplotlib and pandas).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scale=${FBOSIM_REPRO_SCALE:-full}
only=""
jobs=1
results=""
plan=0
study=0
split_runs=20
splits=4
plot_opts=()  # drawing options passed to tools/plot_figures.py
while (($#)); do
  case $1 in
    --power) scale=power ;;
    --landmine-study) study=1 ;;
    --split-runs) split_runs=${2:?--split-runs needs a number}; shift ;;
    --splits) splits=${2:?--splits needs a number}; shift ;;
    --plan) plan=1 ;;
    --quick) scale=quick ;;
    --tiny) scale=tiny ;;
    --only) only=${2:?--only needs a list}; shift ;;
    --only=*) only=${1#--only=} ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift ;;
    --jobs=*) jobs=${1#--jobs=} ;;
    --results) results=${2:?--results needs a directory}; shift ;;
    --results=*) results=${1#--results=} ;;
    --log | --linear | --no-title | --no-footnote | --bare) plot_opts+=("$1") ;;
    --format) plot_opts+=(--format "${2:?--format needs a list}"); shift ;;
    --format=*) plot_opts+=("$1") ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "reproduce.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
# The study is the landmine scale unless another scale was asked for.
if ((study)) && [ "$scale" = full ] && [ -z "${FBOSIM_REPRO_SCALE:-}" ]; then scale=landmine; fi
if ((study)); then : "${only:=fig3a,fig3d,fts_fig2a}"; fi
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "reproduce.sh: --jobs must be a positive integer, got '$jobs'" >&2; exit 2; }
[[ $split_runs =~ ^[1-9][0-9]*$ ]] || { echo "reproduce.sh: --split-runs must be a positive integer, got '$split_runs'" >&2; exit 2; }
[[ $splits =~ ^[0-9]+$ ]] || { echo "reproduce.sh: --splits must be a non-negative integer, got '$splits'" >&2; exit 2; }
case $scale in
  full) synthetic=(); realworld=(); : "${results:=results}" ;;
  power) synthetic=(--runs 50)
         realworld=(--runs 20); : "${results:=results/power}" ;;
  quick) synthetic=(--runs 2 --set rounds=30)
         realworld=(--runs 1 --set rounds=20); : "${results:=results/quick}" ;;
  tiny) synthetic=(--runs 1 --set agents.count=10 --set rounds=4 --set objective.grid_points=200)
        realworld=(--runs 1 --set rounds=2); : "${results:=results/tiny}" ;;
  landmine) synthetic=(); realworld=(--runs 30); : "${results:=results/landmine_study}" ;;
  *) echo "reproduce.sh: scale must be full, power, quick or tiny, got '$scale'" >&2; exit 2 ;;
esac
# EMNIST trains a CNN per query (~0.03 s): the reduced scales also use fewer writers and epochs.
case $scale in
  full | power | landmine) emnist=() ;;
  quick) emnist=(--set agents.count=10 --set agents.init_points=3 --set objective.epochs=3) ;;
  tiny) emnist=(--set agents.count=3 --set agents.init_points=2 --set objective.epochs=1) ;;
esac
# FTS's landmine sources make TS histories of 3 + t_n evaluations per field per process.
case $scale in
  full | power) fts_landmine=() ;;
  landmine) fts_landmine=(--runs 30) ;;
  quick) fts_landmine=(--runs 6 --set rounds=20 --set sources.points=20) ;;
  tiny) fts_landmine=(--runs 1 --set rounds=2 --set agents.count=6 --set sources.points=3) ;;
esac

export FBOSIM_BIN=${FBOSIM_BIN:-build/fbosim}
[ -x "$FBOSIM_BIN" ] || { echo "reproduce.sh: no fbosim binary at $FBOSIM_BIN (cmake --build build --target fbosim, or set FBOSIM_BIN)" >&2; exit 2; }
python=${FBOSIM_PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
data=${FBOSIM_DATA:-data}
export FBOSIM_DATA=$data FBOSIM_RESULTS=$results
threads=$(( $(nproc 2>/dev/null || echo 2) / jobs ))
((threads >= 1)) || threads=1
mkdir -p "$results/logs"

# The figure list, expanded from --only by the plotting script itself (one source of truth).
mapfile -t figures < <("$python" tools/plot_figures.py --only "$only" --list | cut -d: -f1)
((${#figures[@]})) || exit 2

# Which experiments each figure needs. A task is "figure:CONFIG" (tools/run_figure.sh: the
# config and its curve lines) or "grid:CONFIG" (the privacy-utility grid of Fig. 3a-c / 11 from
# that config, one run per (q, z), named <prefix>_q<q>_z<z>: prefix fig3_<dataset> or
# fig11_landmine, the names tools/plot_figures.py expects).
declare -A needs=(
  [fig3a]="figure:landmine grid:landmine" [fig3d]="figure:landmine grid:landmine"
  [fig3b]="figure:activity grid:activity" [fig3e]="figure:activity grid:activity"
  [fig3c]="figure:emnist grid:emnist" [fig3f]="figure:emnist grid:emnist"
  [fig7a]="figure:fig7" [fig7b]="figure:fig7" [fig8]="figure:activity figure:fig8"
  [fig9a]="figure:activity figure:fig9a" [fig9b]="figure:emnist figure:fig9b"
  [fig10a]="figure:activity figure:fig10a" [fig10b]="figure:emnist figure:fig10b"
  [fig11]="figure:landmine grid:fig11" [fig12b]="figure:activity figure:fig12b"
  [fts_fig1a]="figure:fts/fig1a" [fts_fig1b]="figure:fts/fig1b" [fts_fig1c]="figure:fts/fig1c"
  [fts_fig2a]="figure:fts/landmine" [fts_fig3a]="figure:fts/landmine"
)
grid_prefix() { if [ "$1" = fig11 ]; then echo fig11_landmine; else echo "fig3_$1"; fi; }
# The dataset a real-world config reads, and the path that must exist for it.
dataset_of() {
  case $1 in
    landmine | fig11 | fts/landmine) echo landmine ;;
    activity | fig8 | fig9a | fig10a | fig12b) echo activity ;;
    emnist | fig9b | fig10b) echo emnist ;;
    *) echo "" ;;
  esac
}
data_path() {
  case $1 in
    landmine) echo "$data/landmine/LandmineData.mat" ;;
    activity) echo "$data/har/UCI HAR Dataset" ;;
    emnist) echo "$data/femnist_digits" ;;
  esac
}

tasks=()
declare -A seen=()
for f in "${figures[@]}"; do
  for t in ${needs[$f]:-figure:$f}; do
    [ -z "${seen[$t]:-}" ] || continue
    seen[$t]=1
    target=${t#*:}
    d=$(dataset_of "$target")
    case $target in */*) cfg=configs/$target.yaml ;; *) cfg=configs/dp_fts_de/$target.yaml ;; esac
    if [ -n "$d" ] && [ ! -e "$(data_path "$d")" ]; then
      echo "reproduce.sh: skipped: no data at $(data_path "$d") ($t)" >&2
    elif [ ! -f "$cfg" ]; then
      echo "reproduce.sh: skipped: no config $cfg ($t)" >&2
    elif [ "${t%%:*}" = grid ]; then
      # Fig. 3a-c: z in {1, 1.6, 2, 3, 4} at q = 0.35, q in {0.1, ..., 0.35} at z = 1 (the
      # Z_SWEEP and Q_SWEEP of tools/plot_figures.py, written as its names write them).
      for qz in 0.35:1 0.35:1.6 0.35:2 0.35:3 0.35:4 0.1:1 0.15:1 0.2:1 0.25:1; do
        tasks+=("grid:$target:${qz%:*}:${qz#*:}")
      done
    else
      # One task per curve, so that --jobs runs the curves of a figure at once.
      n=$(tools/run_figure.sh "$target" --curves)
      for ((k = 0; k < n; k++)); do tasks+=("$t:$k"); done
    fi
  done
done

# The landmine study's other splits: the headline curves of Fig. 3d (the first four curves of
# configs/dp_fts_de/landmine.yaml: DP-FTS-DE, TS, FTS, FTS-DE) on seeded splits 0..K-1.
if ((study)) && [ -e "$(data_path landmine)" ]; then
  for ((k = 0; k < splits; k++)); do
    for ((c = 0; c < 4; c++)); do tasks+=("split:$k:$c"); done
  done
fi

# --plan: the tasks and their predicted CPU time, from the user CPU seconds of one run of each
# kind measured on this machine (one thread, nice 19, beside other jobs; issue #26): a landmine
# run of DP-FTS-DE's configs (29 agents x 70 evaluations) 8.9-10.2 s, taken as 10.2 s; a curve
# of FTS's landmine study, 30 runs after the 28 sources' TS histories (about 7 s, made once per
# process), 19 s for FTS at M = 100 to about 150 s for TAF at M = 200, taken as 80 s (the mean
# of the last full study: 15 curves in 596 s on 2 cores).
if ((plan)) && [ "$scale" != landmine ]; then
  echo "reproduce.sh: ${#tasks[@]} task(s) at $scale scale (time predicted for the landmine study only)"
  printf '  %s\n' "${tasks[@]}"
  exit 0
fi
if ((plan)); then
  awk -v runs="${realworld[1]:-0}" -v split_runs="$split_runs" -v jobs="$jobs" '
    BEGIN { cores = 2 }
    { n++; kind = $0; sub(/:.*/, "", kind)
      if ($0 ~ /fts\/landmine/) cpu += 80
      else if (kind == "split") cpu += split_runs * 10.2
      else if (kind == "grid" || $0 ~ /figure:landmine/) cpu += runs * 10.2
      else cpu += 0 }
    END { printf "reproduce.sh: %d task(s), about %.0f CPU-seconds: %.0f min on %d cores\n",
                 n, cpu, cpu / cores / 60, cores }' < <(printf '%s\n' "${tasks[@]}")
  printf '  %s\n' "${tasks[@]}"
  exit 0
fi

# elapsed START: seconds since START (a date +%s.%N stamp), one decimal.
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# run_task TASK: one experiment (or one figure's curves), logged to $results/logs/.
run_task() {
  local task=$1 opts log start status=0
  local kind=${task%%:*} rest=${task#*:}
  log="$results/logs/$(tr ':/' '__' <<<"$task").log"
  start=$(date +%s.%N)
  if [ "$kind" = split ]; then
    local k curve o
    IFS=: read -r k curve <<<"$rest"
    opts=()  # the scale's real-world options with --split-runs for their --runs
    for ((o = 0; o < ${#realworld[@]}; o++)); do
      if [ "${realworld[o]}" = --runs ]; then o=$((o + 1)); else opts+=("${realworld[o]}"); fi
    done
    FBOSIM_RESULTS=$results/seeded$k tools/run_figure.sh landmine --curve "$curve" \
      --runs "$split_runs" "${opts[@]}" --set objective.split=seeded \
      --set "objective.split_seed=$k" --threads "$threads" --quiet >"$log" 2>&1 || status=$?
  elif [ "$kind" = grid ]; then
    local c q z name
    IFS=: read -r c q z <<<"$rest"
    name=$(grid_prefix "$c")_q${q}_z${z}
    opts=("${realworld[@]}")
    [ "$(dataset_of "$c")" != emnist ] || opts+=("${emnist[@]}")
    "$FBOSIM_BIN" run "configs/dp_fts_de/$c.yaml" --set "server.sampling_rate=$q" \
      --set "server.noise_multiplier=$z" --set "name=$name" "${opts[@]}" \
      --threads "$threads" --quiet --out "$results/$name" >"$log" 2>&1 || status=$?
  else
    local config=${rest%:*} curve=${rest##*:}
    opts=("${synthetic[@]}")
    [ -z "$(dataset_of "$config")" ] || opts=("${realworld[@]}")
    [ "$(dataset_of "$config")" != emnist ] || opts+=("${emnist[@]}")
    [ "$config" != fts/landmine ] || opts=("${fts_landmine[@]}")
    tools/run_figure.sh "$config" --curve "$curve" "${opts[@]}" --threads "$threads" --quiet \
      >"$log" 2>&1 || status=$?
  fi
  if ((status)); then
    echo "reproduce.sh: FAILED $task (exit $status; log $log)" >&2
    tail -n 5 "$log" >&2
  else
    printf 'reproduce.sh: %-28s %7s s\n' "$task" "$(elapsed "$start")"
  fi
  return "$status"
}

t0=$(date +%s.%N)
echo "reproduce.sh: $scale scale, ${#tasks[@]} task(s), $jobs at a time, results in $results/"
failed=0
running=0
done_tasks=0
# finished: one more task done; prints [k/N] with the elapsed time and an estimate of the rest.
finished() {
  running=$((running - 1))
  done_tasks=$((done_tasks + 1))
  awk -v k="$done_tasks" -v n="${#tasks[@]}" -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {
    e = b - a; printf "reproduce.sh: [%d/%d] %.0f s elapsed, ETA %.0f s\n", k, n, e, e / k * (n - k) }'
}
for task in "${tasks[@]}"; do
  if ((running >= jobs)); then
    wait -n || failed=$((failed + 1))
    finished
  fi
  run_task "$task" &
  running=$((running + 1))
done
while ((running > 0)); do
  wait -n || failed=$((failed + 1))
  finished
done
echo "reproduce.sh: experiments took $(elapsed "$t0") s"

plot_status=0
"$python" tools/plot_figures.py --results "$results" --out "$results/figures" \
  --only "$(IFS=,; echo "${figures[*]}")" ${plot_opts[@]+"${plot_opts[@]}"} || plot_status=$?
# The papers' claims, checked on these results (docs/FIDELITY.md for the whole set at power
# scale, which has the runs to resolve them).
fidelity=$results/FIDELITY.md
[ "$scale" != power ] || [ -n "$only" ] || fidelity=docs/FIDELITY.md
split_roots=()
if ((study)); then
  for ((k = 0; k < splits; k++)); do split_roots+=("$results/seeded$k"); done
fi
"$python" tools/claims.py --results "$results" ${split_roots[@]+--splits "${split_roots[@]}"} \
  --out "$fidelity" || plot_status=$?
echo "reproduce.sh: total $(elapsed "$t0") s ($scale scale, experiments and figures)"
((failed == 0)) || { echo "reproduce.sh: $failed task(s) failed" >&2; exit 1; }
exit "$plot_status"
