#!/usr/bin/env bash
# CTest "tools: reproduce --tiny draws every figure": runs tools/reproduce.sh at tiny scale
# into a temporary results root, with no datasets, and checks that every synthetic figure
# (Fig. 2a-d, 4, 5, 6, 7a, 7b, 12a; FTS Fig. 1a-c) was drawn as a non-empty PNG and PDF, that
# every curve ran at the tiny scale (rounds 0..4), and that the real-world parts were skipped
# with a line naming the missing data; that a repeat (a curve whose resolved config differs from
# another's in the name only) runs once and is linked, and runs alone under --only; then that
# --bare, --log and --format reach the plotting script.
# Usage: reproduce_tiny.sh FBOSIM_BINARY
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export FBOSIM_BIN=${1:?usage: reproduce_tiny.sh FBOSIM_BINARY}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$tmp/out" "$tmp/err" >&2 || true; exit 1; }

FBOSIM_DATA="$tmp/no-data" "$root/tools/reproduce.sh" --tiny --jobs 2 --results "$tmp/r" \
  >"$tmp/out" 2>"$tmp/err" || fail "reproduce.sh --tiny exited $?"

for fig in fig2a fig2b fig2c fig2d fig4 fig5 fig6 fig7a fig7b fig12a fts_fig1a fts_fig1b fts_fig1c; do
  png=$tmp/r/figures/$fig.png pdf=$tmp/r/figures/$fig.pdf
  [ -s "$png" ] || fail "$png missing or empty"
  [ -s "$pdf" ] || fail "$pdf missing or empty"
  [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$png is not a PNG"
  [ "$(head -c 5 "$pdf")" = "%PDF-" ] || fail "$pdf is not a PDF"
done
# Every synthetic curve the figures name exists and ran 4 rounds (the tiny scale was applied).
synthetic=fig2a,fig2b,fig2c,fig2d,fig4,fig5,fig6,fig7a,fig7b,fig12a,fts_fig1a,fts_fig1b,fts_fig1c
names=$("${FBOSIM_PYTHON:-/usr/bin/python3}" "$root/tools/plot_figures.py" --only "$synthetic" --list | cut -d: -f2)
[ "$(wc -w <<<"$names")" -eq 45 ] || fail "plot_figures --list names too few curves: $names"
for name in $names; do
  [ -s "$tmp/r/$name/summary.csv" ] || fail "$tmp/r/$name/summary.csv missing"
  last=$(tail -n 1 "$tmp/r/$name/summary.csv" | cut -d, -f1)
  [ "$last" = 4 ] || fail "$name: last round $last, want 4 (tiny scale)"
done
grep -qF "skipped: no data at $tmp/no-data/landmine/LandmineData.mat" "$tmp/err" ||
  fail "no 'skipped: no data' line for landmine"
grep -qF "skipped: no data at $tmp/no-data/har/UCI HAR Dataset" "$tmp/err" ||
  fail "no 'skipped: no data' line for activity"
grep -q "total .* s (tiny scale" "$tmp/out" || fail "no total time printed"
[ ! -e "$tmp/r/figures/fig3a.png" ] || fail "fig3a drawn without its results"
[ ! -e "$tmp/r/figures/fts_fig2a.png" ] || fail "fts_fig2a drawn without its results"
grep -q "fig2a: FTS converges faster than standard TS" "$tmp/r/FIDELITY.md" || fail "no FIDELITY.md with the claims"
# Issue 28 sec. 5: reproduce.sh passes the drawing options on to plot_figures.py (--bare,
# --log, --format): fig2a again, as an SVG alone, into a fresh figures folder.
# Repeats: Fig. 2c's q = 0.25 is Fig. 2b's S = 11 (the same resolved config but the name). It
# runs once, and its directory is a link to the one that ran; its own run gives the same CSVs.
grep -q "repeat another curve's experiment .*fig2c_q0.25 -> fig2b_s11" "$tmp/out" ||
  fail "no line naming the repeat fig2c_q0.25 -> fig2b_s11"
[ "$(readlink "$tmp/r/fig2c_q0.25")" = fig2b_s11 ] || fail "fig2c_q0.25 is not a link to fig2b_s11"
! grep -q "^reproduce.sh: figure:fig2c:0 " "$tmp/out" || fail "the repeat fig2c_q0.25 ran"
FBOSIM_RESULTS=$tmp/own "$root/tools/run_figure.sh" fig2c --curve 0 --runs 1 --set agents.count=10 \
  --set rounds=4 --set objective.grid_points=200 --quiet >/dev/null 2>&1 || fail "fig2c_q0.25 alone exited $?"
for f in trace.csv summary.csv server.csv; do
  cmp -s "$tmp/own/fig2c_q0.25/$f" "$tmp/r/fig2b_s11/$f" || fail "fig2c_q0.25's own $f differs from fig2b_s11's"
done
# Alone (--only fig2c) it is no repeat: the link gives way to its own results.
FBOSIM_DATA="$tmp/no-data" "$root/tools/reproduce.sh" --tiny --only fig2c --jobs 2 --results "$tmp/r" \
  >"$tmp/out" 2>"$tmp/err" || fail "reproduce.sh --only fig2c exited $?"
[ -d "$tmp/r/fig2c_q0.25" ] && [ ! -L "$tmp/r/fig2c_q0.25" ] || fail "--only fig2c: fig2c_q0.25 is still a link"
cmp -s "$tmp/r/fig2c_q0.25/trace.csv" "$tmp/own/fig2c_q0.25/trace.csv" || fail "--only fig2c: fig2c_q0.25 differs"
rm -rf "$tmp/r/figures"
FBOSIM_DATA="$tmp/no-data" "$root/tools/reproduce.sh" --tiny --only fig2a --jobs 2 \
  --results "$tmp/r" --bare --log --format svg >"$tmp/out" 2>"$tmp/err" ||
  fail "reproduce.sh --bare --log --format svg exited $?"
[ "$(ls "$tmp/r/figures")" = fig2a.svg ] || fail "--format svg: $(ls "$tmp/r/figures")"
grep -q '<svg' "$tmp/r/figures/fig2a.svg" || fail "fig2a.svg is not an SVG"
# matplotlib's SVG keeps every text drawn as a comment: no title, no footnote, log ticks.
! grep -q 'Fig. 2a' "$tmp/r/figures/fig2a.svg" || fail "--bare: fig2a.svg has its title"
! grep -q 'runs: ' "$tmp/r/figures/fig2a.svg" || fail "--bare: fig2a.svg has its footnote"
grep -qF '10^{' "$tmp/r/figures/fig2a.svg" || fail "--log: fig2a.svg has no log ticks"
"$root/tools/reproduce.sh" --format >/dev/null 2>&1 && fail "--format without a list accepted"
echo "reproduce --tiny: every synthetic figure drawn"
