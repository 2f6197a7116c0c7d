#!/usr/bin/env bash
# CTest "tools: the PO-GP-UCB table example runs" (issue 44): examples/table/make_po_table.py
# writes the committed po_synthetic.csv byte for byte; examples/table/po_gp_ucb.yaml runs
# PO-GP-UCB on it through the `table` family (reduced: 2 runs, 5 rounds), with the curator's
# decision in provenance.yaml (sigma_min of the table is 168.27 by numpy's SVD, omega(e^2.9,
# 1e-5, 15) = 202.43: else; at e^4, omega = 67.4: if), and its gp_ucb baseline runs too.
# Usage: po_table_example_test.sh FBOSIM_BINARY
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${1:?usage: po_table_example_test.sh FBOSIM_BINARY}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cp "$root/examples/table/make_po_table.py" "$tmp/"
/usr/bin/python3 "$tmp/make_po_table.py"
cmp -s "$tmp/po_synthetic.csv" "$root/examples/table/po_synthetic.csv" ||
  fail "make_po_table.py does not write the committed po_synthetic.csv"
cd "$root"
run() { "$bin" run examples/table/po_gp_ucb.yaml --runs 2 --set rounds=5 --threads 1 --quiet "$@"; }
run --out "$tmp/po"
[ "$(tail -n 1 "$tmp/po/summary.csv" | cut -d, -f1)" = 5 ] || fail "po: last round is not 5"
[ "$(tail -n 1 "$tmp/po/summary.csv" | cut -d, -f6)" = 18.17414536944306 ] ||
  fail "po: epsilon is not the curator's e^2.9"
grep -q '^  curator.branch: else$' "$tmp/po/provenance.yaml" || fail "po: branch is not else"
grep -q '^  curator.sigma_min: 168.26658' "$tmp/po/provenance.yaml" || fail "po: sigma_min"
grep -q '^  curator.omega: 202.43428' "$tmp/po/provenance.yaml" || fail "po: omega"
run --set curator.epsilon=54.598150033144236 --out "$tmp/po_if"
grep -q '^  curator.branch: if$' "$tmp/po_if/provenance.yaml" || fail "po at e^4: branch is not if"
run --set algorithm=gp_ucb --out "$tmp/base"
[ -z "$(tail -n 1 "$tmp/base/summary.csv" | cut -d, -f7)" ] || fail "gp_ucb: a delta (it is not private)"
! grep -q algorithm_facts "$tmp/base/provenance.yaml" || fail "gp_ucb: algorithm_facts"
echo "PO-GP-UCB table example: ran, else branch at e^2.9, if at e^4, baseline non-private"
