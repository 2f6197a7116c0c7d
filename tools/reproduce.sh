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
#   any of the above with --plan (print the tasks and their predicted time, run nothing),
#   --shard K/N (run shard K of N only, no figures), --plot-only (figures and claims only),
#   --measure-costs (measure the per-run costs the predictions use), --costs FILE
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
# (-> results/landmine_study/, its FIDELITY.md). With --tiny (or --quick) the study runs at
# that scale instead of 30 runs (a check of the pipeline, into its root).
# Predicted time: before it starts, at every scale, the expected CPU time and the wall time on
# this machine's cores (SLURM_CPUS_PER_TASK under Slurm) with --jobs J, from the measured user
# CPU-seconds of one run of each config and curve in tools/repro_costs.tsv (--costs FILE for
# another table) times the task's runs (tools/repro_plan.py; at the quick and tiny scales scaled
# by agents x evaluations per agent, marked approximate). --plan prints that and every task with
# its predicted CPU-seconds, and runs nothing. --measure-costs [--only ...] measures the table
# anew on this machine: each curve of the figures' configs once (`--runs 1 --threads 1`, nice;
# EMNIST at 5 rounds, scaled by evaluations; FTS's landmine curves at 1 and 3 runs, which
# separates the sources' histories made once per process) and merges the rows into the table.
# A curve repeats another when its resolved config differs in the name only (Fig. 9b's default
# curve is Fig. 3f's DP-FTS-DE): it runs once and the repeat's directory becomes a link to the
# curve that ran it (a line names them). Resumed sittings: the runs checkpointed in the results
# (by an interrupted earlier run of the same command and program) are reused, and the prediction
# counts only the runs left.
# Shards (Slurm arrays or several machines on one shared results root): --shard K/N runs only
# shard K of N, the tasks split by predicted cost (longest first, each to the least loaded
# shard: the same split in every shard, from the table each shard reads: the first shard copies
# it to <results>/shard_costs.tsv and all use that copy) with the program snapshotted into
# <results>/program/ (tools/slurm_sweep.sh --snapshot), and draws no figures; --plot-only, after
# every shard finished, draws the figures and checks the claims (it refuses, naming them, when a
# task has not finished: each finished task leaves <results>/logs/<task>.done). Give every shard
# and the --plot-only step the same scale, --only and --results. docs/REPRODUCTION.md has an
# sbatch array.
# Figures go to <results root>/figures/ (PNG and vector PDF; --format chooses; --log / --linear
# set the utility axis of every figure, whose default is its paper's scale; --bare drops titles
# and footnotes: tools/plot_figures.py, docs/FIGURES.md). --only takes figure ids or prefixes
# (fig3 = fig3a-f, fig7 = fig7a,b); --jobs runs J experiments (curves) at once (each with
# nproc/J threads; results do not depend on the thread count). The real-world experiments run
# only when their data is found under ${FBOSIM_DATA:-data} (and their config exists); otherwise
# one "skipped:" line says why.
# Environment: FBOSIM_BIN (default build/fbosim), FBOSIM_DATA, FBOSIM_PYTHON (default
# /usr/bin/python3, Debian's, which has matplotlib and pandas). The papers' configs run no user
# program; a config edited to run one (objective.family command or python) needs
# FBOSIM_ALLOW_EXEC=1 in the environment, which reaches every fbosim this script starts
# (docs/USER_GUIDE.md, "A config is code").
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
measure=0
costs=tools/repro_costs.tsv
shard=""
plot_only=0
plot_opts=()  # drawing options passed to tools/plot_figures.py
while (($#)); do
  case $1 in
    --power) scale=power ;;
    --landmine-study) study=1 ;;
    --split-runs) split_runs=${2:?--split-runs needs a number}; shift ;;
    --splits) splits=${2:?--splits needs a number}; shift ;;
    --plan) plan=1 ;;
    --measure-costs) measure=1 ;;
    --costs) costs=${2:?--costs needs a file}; shift ;;
    --shard) shard=${2:?--shard needs K/N}; shift ;;
    --shard=*) shard=${1#--shard=} ;;
    --plot-only) plot_only=1 ;;
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
if [ -n "$shard" ]; then
  if ! [[ $shard =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] || ((BASH_REMATCH[1] > BASH_REMATCH[2])); then
    echo "reproduce.sh: --shard must be K/N with 1 <= K <= N, got '$shard'" >&2; exit 2
  fi
fi
if ((plan + measure + plot_only > 1)) || { [ -n "$shard" ] && ((plot_only + measure)); }; then
  echo "reproduce.sh: --plan, --measure-costs, --plot-only and --shard exclude each other (but --plan --shard K/N)" >&2
  exit 2
fi
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
  tiny) emnist=(--set agents.count=6 --set agents.init_points=2 --set objective.epochs=1) ;;
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
# The cores this runs on: a Slurm task's allocation, else the machine's.
cores=${SLURM_CPUS_PER_TASK:-$(nproc 2>/dev/null || echo 2)}
threads=$((cores / jobs))
((threads >= 1)) || threads=1
[ -f "$costs" ] || ((measure)) || { echo "reproduce.sh: no cost table $costs (--costs FILE, or --measure-costs to make one)" >&2; exit 2; }

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
  [fts_fig2a]="figure:fts/landmine" [fts_fig3a]="figure:fts/landmine" [fts_fig4a]="figure:fts/fig4a"
)
# FTS Figs. 5 and 7 (targets 2-6) are views of the runs of configs/fts/landmine.yaml and
# activity.yaml.
for k in 2 3 4 5 6; do needs[fts_fig5_t$k]="figure:fts/landmine" needs[fts_fig7_t$k]="figure:fts/activity"; done
grid_prefix() { if [ "$1" = fig11 ]; then echo fig11_landmine; else echo "fig3_$1"; fi; }
# The dataset a real-world config reads, and the path that must exist for it.
dataset_of() {
  case $1 in
    landmine | fig11 | fts/landmine | fts/fig4a) echo landmine ;;
    activity | fig8 | fig9a | fig10a | fig12b | fts/activity) echo activity ;;
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

# config_key TARGET: the config a task target runs, as the cost table names it (dp_fts_de/fig2a).
config_key() { case $1 in */*) echo "$1" ;; *) echo "dp_fts_de/$1" ;; esac; }
# curve_name KEY K: sets t_name to the name of curve K of config KEY and t_variant to its
# overrides (its "# curve:" line; tools/run_figure.sh --list, read once per config).
declare -A curve_list=()
curve_name() {
  [ -n "${curve_list[$1]:-}" ] || curve_list[$1]=$(tools/run_figure.sh "$1" --list)
  local line
  line=$(sed -n "$(($2 + 1))p" <<<"${curve_list[$1]}")
  t_name=${line%%$'\t'*} t_variant=${line#*$'\t'}
}
# task_spec TASK: sets t_key (the config), t_curve (its curve index: a grid point runs the config
# itself, curve 0) and t_opts (the fbosim run options of the task's scale, without --threads).
task_spec() {
  local kind=${1%%:*} rest=${1#*:} o
  t_opts=()
  case $kind in
    split)
      t_key=dp_fts_de/landmine t_curve=${rest#*:}
      for ((o = 0; o < ${#realworld[@]}; o++)); do  # --split-runs replaces the scale's --runs
        if [ "${realworld[o]}" = --runs ]; then o=$((o + 1)); else t_opts+=("${realworld[o]}"); fi
      done
      t_opts+=(--runs "$split_runs" --set objective.split=seeded --set "objective.split_seed=${rest%%:*}") ;;
    grid)
      t_key=$(config_key "${rest%%:*}") t_curve=0
      t_opts=("${realworld[@]}")
      [ "$(dataset_of "${rest%%:*}")" != emnist ] || t_opts+=("${emnist[@]}") ;;
    *)
      local config=${rest%:*}
      t_key=$(config_key "$config") t_curve=${rest##*:}
      t_opts=("${synthetic[@]}")
      [ -z "$(dataset_of "$config")" ] || t_opts=("${realworld[@]}")
      [ "$(dataset_of "$config")" != emnist ] || t_opts+=("${emnist[@]}")
      [ "$config" != fts/landmine ] || t_opts=("${fts_landmine[@]}") ;;
  esac
}
# task_out TASK: sets t_out, the task's results directory (after task_spec and curve_name).
task_out() {
  local kind=${1%%:*} rest=${1#*:} c q z
  case $kind in
    split) t_out=$results/seeded${rest%%:*}/$t_name ;;
    grid) IFS=: read -r c q z <<<"$rest"; t_out=$results/$(grid_prefix "$c")_q${q}_z${z} ;;
    *) t_out=$results/$t_name ;;
  esac
}
# plan_lines [TASK...]: the tasks as tools/repro_plan.py reads them (task, config, curve, options,
# results directory: the finished runs checkpointed there are not counted again).
plan_lines() {
  local t
  for t in "$@"; do
    task_spec "$t"
    curve_name "$t_key" "$t_curve"
    task_out "$t"
    printf '%s\t%s\t%s\t%s\t%s\n' "$t" "$t_key" "$t_name" "${t_opts[*]}" "$t_out"
  done
}

# --measure-costs: one run of each config and curve the tasks use, user CPU at one thread.
if ((measure)); then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  declare -A measured=()
  nice_level=${FBOSIM_MEASURE_NICE:-19}
  # resolved CONFIG [options]: "agents init rounds runs epochs" of the resolved config.
  resolved() {
    "$FBOSIM_BIN" config "$@" | awk '
      /^[a-z]/ { section = $1 }
      section == "rounds:" && /^rounds:/ { rounds = $2 }
      section == "runs:" && /^runs:/ { runs = $2 }
      section == "agents:" && /^  count:/ { agents = $2 }
      section == "agents:" && /^  init_points:/ { init = $2 }
      section == "objective:" && /^  epochs:/ { epochs = $2 }
      END { printf "%s\t%s\t%s\t%s\t%s", agents, init, rounds, runs, (epochs == "" ? "-" : epochs) }'
  }
  echo "reproduce.sh: measuring the cost of one run of each curve into $costs (nice -n $nice_level, one thread; user CPU)"
  for task in "${tasks[@]}"; do
    task_spec "$task"
    key=$t_key curve=$t_curve
    family=$(dataset_of "${key#*/}")
    [ "$key" != fts/landmine ] || family=fts_landmine
    # EMNIST: curve 0 stands for every curve (the CNN trainings are ~96 % of a run, the same
    # for each); the others: each curve.
    [ "$family" != emnist ] || curve=0
    [ -z "${measured[$key:$curve]:-}" ] || continue
    measured[$key:$curve]=1
    IFS=$'\t' read -r name overrides < <(tools/run_figure.sh "$key" --list | sed -n "$((curve + 1))p")
    row=$name
    [ "$family" != emnist ] || row='*'
    # shellcheck disable=SC2086  # the curve's overrides are words
    cfg=$(resolved "configs/$key.yaml" $overrides)
    case $family in
      emnist) extra=(--set rounds=5); runs_list=(1); how="1 run at 5 rounds, --threads 1, nice -n $nice_level, user CPU; curve 0 for every curve" ;;
      # The sources' histories are the same for every curve: measured once, by a 1- and a 3-run
      # process of the config's first curve; the others run once, less that setup.
      fts_landmine)
        extra=(); runs_list=(1); how="1 run, --threads 1, nice -n $nice_level, user CPU, less the config's setup"
        [ -n "${measured[$key:setup]:-}" ] || { runs_list=(1 3); how="1 and 3 runs, --threads 1, nice -n $nice_level, user CPU"; }
        measured[$key:setup]=1 ;;
      *) extra=(); runs_list=(1); how="1 run, --threads 1, nice -n $nice_level, user CPU" ;;
    esac
    for runs in "${runs_list[@]}"; do
      rm -rf "$tmp/out"
      start=$(date +%s.%N)
      # shellcheck disable=SC2086
      nice -n "$nice_level" /usr/bin/time -f %U -o "$tmp/time" "$FBOSIM_BIN" run "configs/$key.yaml" \
        $overrides "${extra[@]}" --runs "$runs" --threads 1 --quiet --out "$tmp/out" \
        >"$tmp/log" 2>&1 || { echo "reproduce.sh: FAILED measuring $key $name:" >&2; tail -n 5 "$tmp/log" >&2; exit 1; }
      user=$(tail -n 1 "$tmp/time")
      rounds=$(cut -f3 <<<"$cfg")
      [ "${#extra[@]}" = 0 ] || rounds=5
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$key" "$row" "$runs" "$rounds" "$user" "$cfg" \
        "$how; load $(cut -d' ' -f1 /proc/loadavg)" >>"$tmp/measurements"
      printf 'reproduce.sh: %-24s %-28s runs %s: %6.1f user CPU-s (%s s wall)\n' "$key" "$name" \
        "$runs" "$user" "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')"
    done
  done
  [ -s "$tmp/measurements" ] || { echo "reproduce.sh: nothing to measure" >&2; exit 1; }
  cpu=$(sed -n 's/^model name[[:space:]]*: //p;T;q' /proc/cpuinfo)
  "$python" tools/repro_plan.py record --table "$costs" \
    --note "$(nproc) x $cpu, $(git rev-parse --short HEAD 2>/dev/null || echo '?'), beside other jobs (load average $(cut -d' ' -f1-3 /proc/loadavg))" \
    <"$tmp/measurements"
  echo "reproduce.sh: wrote $costs"
  exit 0
fi

# Repeats: a curve whose experiment another curve of the list already runs, i.e. whose resolved
# config differs from it in the name only (Fig. 9b's and 10b's default curves are Fig. 3f's
# DP-FTS-DE, the q = 0.35, z = 1 point of Fig. 3c's grid too; Fig. 2b's S = 11 is Fig. 2c's
# q = 0.25, ...). fbosim's outputs depend on the resolved config and the program, never on the
# name (a run's streams are keyed by the seed and the run index), so each experiment runs once
# and its repeats become links to its directory, made before the figures are drawn
# (link_repeats). A repeat whose directory already holds results (not a link) runs as before.
# task_digest TASK: sets t_digest, the SHA-256 of the task's resolved config without its name
# (empty where `fbosim config` fails: such a task is never taken for a repeat).
task_digest() {
  local kind=${1%%:*} rest=${1#*:} cfg c q z variant=()
  task_spec "$1"
  curve_name "$t_key" "$t_curve"
  task_out "$1"
  cfg=configs/$t_key.yaml
  if [ "$kind" = grid ]; then
    IFS=: read -r c q z <<<"$rest"
    variant=(--set "server.sampling_rate=$q" --set "server.noise_multiplier=$z")
  else
    read -r -a variant <<<"$t_variant"
  fi
  t_digest=$("$FBOSIM_BIN" config "$cfg" ${variant[@]+"${variant[@]}"} ${t_opts[@]+"${t_opts[@]}"} \
    2>/dev/null | sed '/^name:/d' | sha256sum | cut -d' ' -f1) || t_digest=""
}
declare -A repeat_of=()  # a repeat's results directory -> the directory of the curve that runs it
repeats=()
if ((!measure)); then
  declare -A runs_as=()  # digest -> the results directory of the first curve with it
  kept=()
  for t in "${tasks[@]}"; do
    case ${t%%:*} in
      figure | grid)
        task_digest "$t"
        if [ -n "$t_digest" ] && [ -n "${runs_as[$t_digest]:-}" ] && { [ -L "$t_out" ] || [ ! -e "$t_out" ]; }; then
          repeat_of[$t_out]=${runs_as[$t_digest]}
          repeats+=("$t_out")
          continue
        fi
        [ -z "$t_digest" ] || [ -n "${runs_as[$t_digest]:-}" ] || runs_as[$t_digest]=$t_out ;;
    esac
    kept+=("$t")
  done
  tasks=(${kept[@]+"${kept[@]}"})
  if ((${#repeats[@]})); then
    echo "reproduce.sh: ${#repeats[@]} curve(s) repeat another curve's experiment (the same resolved config but the name), run once and linked: $(
      for r in "${repeats[@]}"; do printf '%s -> %s, ' "${r##*/}" "${repeat_of[$r]##*/}"; done | sed 's/, $//')"
  fi
fi
# link_repeats: each repeat's directory, a link to the directory of the curve that ran it.
link_repeats() {
  local r
  for r in ${repeats[@]+"${repeats[@]}"}; do
    ln -sfn "${repeat_of[$r]##*/}" "$r"
  done
}

# The plan: every task with its predicted CPU time, and the total (also printed before a run).
if ((plan)); then
  echo "reproduce.sh: ${#tasks[@]} task(s) at $scale scale${shard:+, shard $shard}"
  shards=${shard#*/}
  plan_lines "${tasks[@]}" | "$python" tools/repro_plan.py plan --table "$costs" \
    --cores "$cores" --jobs "$jobs" ${shard:+--shards "$shards"} --list
  exit 0
fi

mkdir -p "$results/logs"  # not before: --plan and --measure-costs leave nothing on disk
# --shard K/N: this shard's tasks only, the split computed from one table for every shard.
if [ -n "$shard" ]; then
  if [ ! -e "$results/shard_costs.tsv" ]; then
    cp "$costs" "$results/.shard_costs.$$"
    ln "$results/.shard_costs.$$" "$results/shard_costs.tsv" 2>/dev/null || true  # first one wins
    rm -f "$results/.shard_costs.$$"
  fi
  costs=$results/shard_costs.tsv
  mapfile -t tasks < <(plan_lines "${tasks[@]}" | "$python" tools/repro_plan.py shard "$shard" --table "$costs")
  FBOSIM_BIN=$(FBOSIM=$FBOSIM_BIN tools/slurm_sweep.sh --snapshot "$results")
  export FBOSIM_BIN
fi

# elapsed START: seconds since START (a date +%s.%N stamp), one decimal.
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
# done_file TASK: left by a finished task (--plot-only checks them).
done_file() { echo "$results/logs/$(tr ':/' '__' <<<"$1").done"; }

# run_task TASK: one experiment (or one figure's curves), logged to $results/logs/.
run_task() {
  local task=$1 log start status=0
  local kind=${task%%:*} rest=${task#*:}
  log="$results/logs/$(tr ':/' '__' <<<"$task").log"
  rm -f "$(done_file "$task")"
  start=$(date +%s.%N)
  task_spec "$task"
  # A link left where this curve was a repeat (another --only) must not receive its results.
  curve_name "$t_key" "$t_curve"
  task_out "$task"
  [ ! -L "$t_out" ] || rm -f "$t_out"
  if [ "$kind" = split ]; then
    FBOSIM_RESULTS=$results/seeded${rest%%:*} tools/run_figure.sh landmine --curve "$t_curve" \
      "${t_opts[@]}" --threads "$threads" --quiet >"$log" 2>&1 || status=$?
  elif [ "$kind" = grid ]; then
    local c q z name
    IFS=: read -r c q z <<<"$rest"
    name=$(grid_prefix "$c")_q${q}_z${z}
    "$FBOSIM_BIN" run "configs/dp_fts_de/$c.yaml" --set "server.sampling_rate=$q" \
      --set "server.noise_multiplier=$z" --set "name=$name" "${t_opts[@]}" \
      --threads "$threads" --quiet --out "$results/$name" >"$log" 2>&1 || status=$?
  else
    tools/run_figure.sh "${rest%:*}" --curve "$t_curve" "${t_opts[@]}" --threads "$threads" \
      --quiet >"$log" 2>&1 || status=$?
  fi
  if ((status)); then
    echo "reproduce.sh: FAILED $task (exit $status; log $log)" >&2
    tail -n 5 "$log" >&2
  else
    : >"$(done_file "$task")"
    printf 'reproduce.sh: %-28s %7s s\n' "$task" "$(elapsed "$start")"
  fi
  return "$status"
}

t0=$(date +%s.%N)
failed=0
if ((plot_only)); then
  missing=()
  for task in "${tasks[@]}"; do [ -e "$(done_file "$task")" ] || missing+=("$task"); done
  if ((${#missing[@]})); then
    echo "reproduce.sh: --plot-only: ${#missing[@]} of ${#tasks[@]} task(s) have not finished in $results (no logs/<task>.done): ${missing[*]}; run their shard again (the same options with --shard K/N)" >&2
    exit 1
  fi
else
  echo "reproduce.sh: $scale scale${shard:+, shard $shard}, ${#tasks[@]} task(s), $jobs at a time, results in $results/"
  ((${#tasks[@]} == 0)) || plan_lines "${tasks[@]}" |
    "$python" tools/repro_plan.py plan --table "$costs" --cores "$cores" --jobs "$jobs"
  # Each task's predicted CPU-seconds still to do (0 for one an earlier sitting finished), and
  # the finished tasks' own wall time and predictions, for the estimate of the rest
  # (repro_plan.py eta: the running tasks' unfinished part and the queued tasks on the slots).
  declare -A predicted=() task_of=() started=()
  if ((${#tasks[@]})); then
    while IFS=$'\t' read -r t c; do predicted[$t]=$c; done < <(plan_lines "${tasks[@]}" |
      "$python" tools/repro_plan.py costs --table "$costs")
  fi
  running=0
  done_tasks=0
  wall_sum=0
  pred_sum=0
  # finished PID NEXT: PID's task is done, tasks NEXT.. are queued; prints [k/N] with the elapsed
  # time and the estimate of the rest.
  finished() {
    local t=${task_of[$1]:-} p q i
    unset "task_of[$1]"
    running=$((running - 1))
    done_tasks=$((done_tasks + 1))
    p=${predicted[$t]:-0}
    read -r wall_sum pred_sum < <(awk -v w="$wall_sum" -v s="$pred_sum" -v p="$p" \
      -v e="$(elapsed "${started[$1]}")" 'BEGIN { if (p >= 1) { w += e; s += p } print w, s }')
    printf 'reproduce.sh: [%d/%d] %.0f s elapsed, ETA %s s\n' "$done_tasks" "${#tasks[@]}" \
      "$(elapsed "$t0")" "$({
        for q in "${!task_of[@]}"; do
          echo "running ${predicted[${task_of[$q]}]:-0} $(elapsed "${started[$q]}")"
        done
        for ((i = $2; i < ${#tasks[@]}; i++)); do echo "queued ${predicted[${tasks[i]}]:-0}"; done
      } | "$python" tools/repro_plan.py eta --wall "$wall_sum" --pred "$pred_sum" \
        --cores "$cores" --jobs "$jobs")"
  }
  for ((next = 0; next < ${#tasks[@]}; next++)); do
    if ((running >= jobs)); then
      wait -n -p pid || failed=$((failed + 1))
      finished "$pid" "$next"
    fi
    run_task "${tasks[next]}" &
    task_of[$!]=${tasks[next]}
    started[$!]=$(date +%s.%N)
    running=$((running + 1))
  done
  while ((running > 0)); do
    wait -n -p pid || failed=$((failed + 1))
    finished "$pid" "${#tasks[@]}"
  done
  echo "reproduce.sh: experiments took $(elapsed "$t0") s"
fi
if [ -n "$shard" ]; then
  ((failed == 0)) || { echo "reproduce.sh: shard $shard: $failed task(s) failed" >&2; exit 1; }
  echo "reproduce.sh: shard $shard done; when every shard is, draw and check with the same options and --plot-only"
  exit 0
fi

plot_status=0
link_repeats
"$python" tools/plot_figures.py --results "$results" --out "$results/figures" \
  --only "$(IFS=,; echo "${figures[*]}")" ${plot_opts[@]+"${plot_opts[@]}"} || plot_status=$?
# The papers' claims, checked on these results: <results>/FIDELITY.md, and the measured
# differences as <results>/verdicts.csv (study: the scale; issue 44). docs/FIDELITY.md is
# generated from docs/verdicts/verdicts.csv: fold a study's rows in with
# tools/claims.py --results DIR --study NAME --stats-out docs/verdicts/verdicts.csv, then
# tools/claims.py --from-stats docs/verdicts/verdicts.csv --out docs/FIDELITY.md.
fidelity=$results/FIDELITY.md
split_roots=()
if ((study)); then
  for ((k = 0; k < splits; k++)); do split_roots+=("$results/seeded$k"); done
fi
"$python" tools/claims.py --results "$results" ${split_roots[@]+--splits "${split_roots[@]}"} \
  --study "$scale" --stats-out "$results/verdicts.csv" --out "$fidelity" || plot_status=$?
echo "reproduce.sh: total $(elapsed "$t0") s ($scale scale, experiments and figures)"
((failed == 0)) || { echo "reproduce.sh: $failed task(s) failed" >&2; exit 1; }
exit "$plot_status"
