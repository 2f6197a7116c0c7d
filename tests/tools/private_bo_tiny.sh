#!/usr/bin/env bash
# CTest "tools: private_bo --tiny draws every figure": runs tools/private_bo.sh at tiny scale
# into a temporary results root, without the landmine data, and checks that PO-GP-UCB's Fig. 2a,
# its tables and the synthetic DP-BO figure were drawn, that every sweep point ran at the tiny
# scale, and that landmine was skipped with a line naming the missing data.
# Usage: private_bo_tiny.sh FBOSIM_BINARY
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export FBOSIM_BIN=${1:?usage: private_bo_tiny.sh FBOSIM_BINARY}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; cat "$tmp/out" "$tmp/err" >&2 || true; exit 1; }

FBOSIM_DATA="$tmp/no-data" "$root/tools/private_bo.sh" --tiny --results "$tmp/r" \
  >"$tmp/out" 2>"$tmp/err" || fail "private_bo.sh --tiny exited $?"
for f in po_fig2a.png po_fig2a.pdf dpbo_synthetic.png dpbo_synthetic.pdf po_tables.md; do
  [ -s "$tmp/r/figures/$f" ] || fail "$f missing or empty"
done
[ "$(grep -c '^| \*\*' "$tmp/r/figures/po_tables.md")" = 3 ] || fail "po_tables.md lacks a table"
for t in 1 2 3; do
  for s in "" _l6.25 _authors; do
    [ "$(($(wc -l <"$tmp/r/po_table$t${s}_sweep/sweep.csv") - 1))" = 6 ] ||
      fail "po_table$t$s: not 6 points"
  done
done
last=$(tail -n 1 "$tmp/r/po_fig2a_gp_ucb/summary.csv" | cut -d, -f1)
[ "$last" = 5 ] || fail "po_fig2a_gp_ucb: last round $last, want 5 (tiny scale)"
[ -s "$tmp/r/dpbo_synthetic_ps_sweep/sweep.csv" ] || fail "no Papernot-Steinke sweep"
grep -qF "skipped: no data at $tmp/no-data/landmine/LandmineData.mat" "$tmp/err" ||
  fail "no 'skipped: no data' line for landmine"
echo "private_bo --tiny: every figure drawn"
