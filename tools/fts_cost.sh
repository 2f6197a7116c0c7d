#!/usr/bin/env bash
# FTS Fig. 3d (Dai, Low & Jaillet, NeurIPS 2020): per-iteration cost of the target agent
# against the number N of source agents, for FTS, RGPE and TAF (the paper: "increasing N has
# minimal effect on the runtime of FTS yet leads to growing computational cost for RGPE and
# TAF"). Prints a Markdown table of the median wall time of one iteration (the target's
# proposal and its evaluation; the sources' histories excluded), from timing.csv.
#
#   tools/fts_cost.sh [--family landmine|gp_box] [--n "7 14 28 56 112"] [--runs R] [--rounds T]
#
# landmine has 29 fields, so N <= 28 there; gp_box (a 2-D continuous GP function, like
# landmine's two SVM hyperparameters, with the landmine study's M = 100, RFF length scale 0.01
# and t_n = 50 random observations per source) takes any N. Environment: FBOSIM_BIN, FBOSIM_DATA.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
family=gp_box ns="7 14 28 56 112" runs=3 rounds=50
while (($#)); do
  case $1 in
    --family) family=${2:?}; shift ;;
    --n) ns=${2:?}; shift ;;
    --runs) runs=${2:?}; shift ;;
    --rounds) rounds=${2:?}; shift ;;
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fts_cost.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
bin=${FBOSIM_BIN:-build/fbosim}
[ -x "$bin" ] || { echo "fts_cost.sh: no fbosim binary at $bin" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $family in
  landmine) config=configs/fts/landmine.yaml objective=(--set datasets.root="${FBOSIM_DATA:-data}") ;;
  gp_box)
    # The landmine study's settings on a 2-D continuous GP function (sources observed 50 random
    # inputs of f + an independent GP perturbation of std 0.1).
    config=$tmp/cost.yaml objective=()
    sed -e 's/^objective:.*/objective: {family: gp_box, dim: 2, lengthscale: 0.2, perturbation: 0.1, noise_var: 1.0e-4}/' \
        -e 's/^target: .*/target: {agents: 1, schedule: inv_square}/' \
        -e 's/^sources: .*/sources: {history: random, points: 50, setting: simple}/' \
        -e 's/^name: .*/name: cost/' configs/fts/landmine.yaml >"$config" ;;
  *) echo "fts_cost.sh: --family must be landmine or gp_box" >&2; exit 2 ;;
esac
# median over rounds 1..T of every run's per-iteration seconds.
median() { awk -F, 'NR > 1 && $2 > 0 { print $3 }' "$1" | sort -g | awk '{ v[NR] = $1 }
  END { printf "%.4f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "| N | FTS (s / iteration) | RGPE | TAF |"
echo "|---|---|---|---|"
for n in $ns; do
  row="| $n |"
  for alg in fts_target rgpe taf; do
    out=$tmp/$alg-$n
    "$bin" run "$config" "${objective[@]}" --set algorithm=$alg --set agents.count=$((n + 1)) \
      --set target.agents=1 --set rounds="$rounds" --runs "$runs" --threads 1 --quiet \
      --set name=cost --out "$out" >/dev/null
    row+=" $(median "$out/timing.csv") |"
  done
  echo "$row"
done
