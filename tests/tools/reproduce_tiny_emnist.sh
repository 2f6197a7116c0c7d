#!/usr/bin/env bash
# CTest "tools: reproduce --tiny draws the EMNIST figures": tools/reproduce.sh at tiny scale on
# the shared FEMNIST digits for DP-FTS-DE's Fig. 3c, 3f, 9b and 10b (24 experiments: 6 writers,
# 2 rounds, one epoch), the pipeline that the power-scale EMNIST reproduction runs for hours.
# Checks: every figure drawn (PNG and PDF); every curve the figures read ran at the tiny scale;
# the five repeats (Fig. 9b's and 10b's defaults, Fig. 3c's q = 0.35, z = 1) ran once, each a link
# to the curve with its experiment; a repeat's own run gives the same CSVs (the name does not
# enter the results, for the CNN objective too).
# Usage: reproduce_tiny_emnist.sh FBOSIM_BINARY DATASETS_DIR (exit 77, skipped, without
# DATASETS_DIR/femnist_digits; $FBOSIM_DATA, when set, replaces DATASETS_DIR).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export FBOSIM_BIN=${1:?usage: reproduce_tiny_emnist.sh FBOSIM_BINARY DATASETS_DIR}
data=${2:?usage: reproduce_tiny_emnist.sh FBOSIM_BINARY DATASETS_DIR}
data=${FBOSIM_DATA:-$data}
if [ ! -d "$data/femnist_digits" ]; then
  echo "skipped: no FEMNIST digits at $data/femnist_digits (tools/fetch_datasets.sh downloads the data sets)" >&2
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; tail -n 20 "$tmp/out" "$tmp/err" >&2 || true; exit 1; }

figures=fig3c,fig3f,fig9b,fig10b
FBOSIM_DATA=$data "$root/tools/reproduce.sh" --tiny --only "$figures" --jobs 2 --results "$tmp/r" \
  >"$tmp/out" 2>"$tmp/err" || fail "reproduce.sh --tiny --only $figures exited $?"
for fig in ${figures//,/ }; do
  [ -s "$tmp/r/figures/$fig.png" ] || fail "$fig.png missing or empty"
  [ -s "$tmp/r/figures/$fig.pdf" ] || fail "$fig.pdf missing or empty"
done
names=$("${FBOSIM_PYTHON:-/usr/bin/python3}" "$root/tools/plot_figures.py" --only "$figures" --list | cut -d: -f2 | tr " " "\n" | sed "/^$/d" | sort -u)
(($(wc -w <<<"$names") == 29)) || fail "plot_figures --list names $(wc -w <<<"$names") curves, want 29: $names"
for name in $names; do
  [ -s "$tmp/r/$name/summary.csv" ] || fail "$name: no summary.csv"
  [ "$(tail -n 1 "$tmp/r/$name/summary.csv" | cut -d, -f1)" = 2 ] || fail "$name: not at the tiny scale's 2 rounds"
done
for pair in fig3_emnist_q0.35_z1:emnist_dp_fts_de fig9b_dp_fts_de:emnist_dp_fts_de \
  fig10b_dp_fts_de_p4:emnist_dp_fts_de fig9b_fts_de:emnist_fts_de fig10b_fts_de_p4:emnist_fts_de; do
  [ "$(readlink "$tmp/r/${pair%%:*}")" = "${pair#*:}" ] || fail "${pair%%:*} is not a link to ${pair#*:}"
done
(($(grep -c '^reproduce.sh: [a-z]*:[^ ]* .* s$' "$tmp/out") == 24)) || fail "not 24 experiments run"
FBOSIM_DATA=$data FBOSIM_RESULTS=$tmp/own "$root/tools/run_figure.sh" fig9b --curve 0 --runs 1 \
  --set rounds=2 --set agents.count=6 --set agents.init_points=2 --set objective.epochs=1 --quiet \
  >/dev/null 2>&1 || fail "fig9b_dp_fts_de alone exited $?"
for f in trace.csv summary.csv server.csv; do
  cmp -s "$tmp/own/fig9b_dp_fts_de/$f" "$tmp/r/emnist_dp_fts_de/$f" || fail "fig9b_dp_fts_de's own $f differs"
done
echo "reproduce --tiny: the EMNIST figures drawn, 24 experiments for 29 curves"
