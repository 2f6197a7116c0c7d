#!/usr/bin/env bash
# Runs the experiments of issue #12 and draws their figures and tables with
# tools/plot_private_bo.py:
#   PO-GP-UCB (Kharkovskii, Dai & Low, ICML 2020): configs/po_gp_ucb/fig2a*.yaml (Fig. 2a: regret
#     against epsilon) and table{1,2,3}*.yaml (Tables 1-3: regret against r), each config's
#     sweep section for the file and every "# curve:" line, the gp_ucb curves as single runs;
#   DP release of BO results (Kusner et al., ICML 2015; Papernot & Steinke 2022):
#     configs/dp_bo/synthetic.yaml and landmine.yaml (when the data is found), the epsilon sweep
#     for every curve.
#
#   tools/private_bo.sh [--tiny] [--jobs J] [--threads K] [--results DIR] [--only po|dp_bo]
#                       [--log | --linear] [--bare | --no-title --no-footnote] [--format LIST]
#
# Full scale writes to results/ (each sweep to results/<curve name>_sweep/, each run to
# results/<curve name>/); --tiny (2 runs, 5 rounds, a 30 x 30 grid; landmine 1 run, 3 rounds) to
# results/tiny/, a smoke test of the pipeline and not a result. --jobs: sweep points at once
# (default 2), --threads: per point (default 1). The drawing options go to
# tools/plot_private_bo.py (docs/FIGURES.md). Environment: FBOSIM_BIN (default build/fbosim),
# FBOSIM_DATA (default data), FBOSIM_PYTHON (default /usr/bin/python3).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

tiny=0
jobs=2
threads=1
results=""
only=""
plot_opts=()  # drawing options passed to tools/plot_private_bo.py
while (($#)); do
  case $1 in
    --tiny) tiny=1 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift ;;
    --threads) threads=${2:?--threads needs a number}; shift ;;
    --results) results=${2:?--results needs a directory}; shift ;;
    --only) only=${2:?--only needs po or dp_bo}; shift ;;
    --log | --linear | --no-title | --no-footnote | --bare) plot_opts+=("$1") ;;
    --format) plot_opts+=(--format "${2:?--format needs a list}"); shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "private_bo.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ $jobs =~ ^[1-9][0-9]*$ && $threads =~ ^[1-9][0-9]*$ ]] ||
  { echo "private_bo.sh: --jobs and --threads must be positive integers" >&2; exit 2; }
case $only in "" | po | dp_bo) ;; *) echo "private_bo.sh: --only takes po or dp_bo" >&2; exit 2 ;; esac
if ((tiny)); then
  : "${results:=results/tiny}"
  po_scale=(--runs 2 --set rounds=5 --set objective.grid_side=30)
  dpbo_scale=(--runs 2 --set rounds=4)
  landmine_scale=(--runs 1 --set rounds=3)
else
  : "${results:=results}"
  po_scale=()
  dpbo_scale=()
  landmine_scale=()
fi
bin=${FBOSIM_BIN:-build/fbosim}
[ -x "$bin" ] || { echo "private_bo.sh: no fbosim binary at $bin (build it, or set FBOSIM_BIN)" >&2; exit 2; }
python=${FBOSIM_PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
data=${FBOSIM_DATA:-data}
mkdir -p "$results/logs"

# curves CONFIG: "NAME<TAB>OVERRIDES" for the file itself and each "# curve:" line.
curves() {
  local base variant name
  base=$(sed -n 's/^name:[[:space:]]*\([^[:space:]#]*\).*/\1/p;T;q' "$1")
  printf '%s\t\n' "$base"
  { grep -E '^# curve: ' "$1" || true; } | sed 's/^# curve: //' | while read -r variant; do
    name=$(sed -n 's/.*--set name=\([^[:space:]]*\).*/\1/p' <<<"$variant")
    printf '%s\t%s\n' "${name:?curve line without --set name=: $variant}" "$variant"
  done
}

failed=0
# experiment CONFIG SCALE...: every curve of CONFIG: a sweep, or one run for gp_ucb (its
# releases do not depend on the swept privacy keys).
experiment() {
  local cfg=$1 name variant log status
  shift
  while IFS=$'\t' read -r name variant; do
    log="$results/logs/$name.log"
    status=0
    # shellcheck disable=SC2086  # the curve's overrides are words
    if [[ $variant == *algorithm=gp_ucb* ]]; then
      "$bin" run "$cfg" $variant "$@" --threads "$((jobs * threads))" --quiet --force \
        --out "$results/$name" >"$log" 2>&1 || status=$?
    else
      "$bin" sweep "$cfg" $variant "$@" --jobs "$jobs" --threads "$threads" --quiet --force \
        --out "$results/${name}_sweep" >"$log" 2>&1 || status=$?
    fi
    if ((status)); then
      echo "private_bo.sh: FAILED $name (exit $status; log $log)" >&2
      tail -n 5 "$log" >&2
      failed=$((failed + 1))
    else
      echo "private_bo.sh: $name"
    fi
  done < <(curves "$cfg")
}

t0=$(date +%s)
if [ "$only" != dp_bo ]; then
  for c in fig2a fig2a_authors table1 table1_authors table2 table2_authors table3 table3_authors; do
    experiment "configs/po_gp_ucb/$c.yaml" "${po_scale[@]}"
  done
fi
if [ "$only" != po ]; then
  experiment configs/dp_bo/synthetic.yaml "${dpbo_scale[@]}"
  if [ -e "$data/landmine/LandmineData.mat" ]; then
    experiment configs/dp_bo/landmine.yaml "${landmine_scale[@]}" --set "datasets.root=$data"
  else
    echo "private_bo.sh: skipped: no data at $data/landmine/LandmineData.mat (dpbo_landmine)" >&2
  fi
fi
echo "private_bo.sh: experiments took $(($(date +%s) - t0)) s"
plot_status=0
"$python" tools/plot_private_bo.py --results "$results" --out "$results/figures" \
  ${plot_opts[@]+"${plot_opts[@]}"} || plot_status=$?
((failed == 0)) || { echo "private_bo.sh: $failed experiment(s) failed" >&2; exit 1; }
exit "$plot_status"
