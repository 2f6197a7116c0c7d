#!/usr/bin/env bash
# Issue 44: docs/FIDELITY.md is generated from docs/verdicts/verdicts.csv, and every count of
# claims (and every marked verdict) that README.md, docs/REPRODUCTION.md, docs/CLAIMS.md and
# docs/FIDELITY.md quote agrees with it. Also checks that the check can fail: a doc with a
# marked count changed, a marked verdict changed, or an unmarked count of claims is refused.
# Usage: claims_docs_test.sh REPO_ROOT
set -euo pipefail
root=${1:?usage: claims_docs_test.sh REPO_ROOT}
cd "$root"
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
docs=(README.md docs/REPRODUCTION.md docs/CLAIMS.md docs/FIDELITY.md)
fail() { echo "FAIL: $*" >&2; exit 1; }

"$py" tools/claims.py --from-stats docs/verdicts/verdicts.csv --out "$tmp/FIDELITY.md" >/dev/null
diff -u docs/FIDELITY.md "$tmp/FIDELITY.md" | head -40 || true; cmp -s docs/FIDELITY.md "$tmp/FIDELITY.md" ||
  fail "docs/FIDELITY.md is not what tools/claims.py --from-stats docs/verdicts/verdicts.csv writes"
"$py" tools/claims.py --from-stats docs/verdicts/verdicts.csv --check-docs "${docs[@]}" ||
  fail "a doc quotes a count or verdict the table does not give"

# The check refuses stale docs: a marked count off by one, a marked verdict changed, an unmarked count.
"$py" - "$tmp" <<'PY'
import re, sys
tmp = sys.argv[1]
text = open("docs/CLAIMS.md", encoding="utf-8").read()
m = re.search(r"(\d+)(\**\s*<!--\s*count:)", text)
assert m, "docs/CLAIMS.md has no marked count"
stale = text[:m.start(1)] + str(int(m.group(1)) + 1) + text[m.end(1):]
open(f"{tmp}/count.md", "w", encoding="utf-8").write(stale)
m = re.search(r"(holds|not resolved|contradicted)(\**\s*<!--\s*verdict:)", text)
assert m, "docs/CLAIMS.md has no marked verdict"
other = "contradicted" if m.group(1) != "contradicted" else "holds"
open(f"{tmp}/verdict.md", "w", encoding="utf-8").write(text[:m.start(1)] + other + text[m.end(1):])
open(f"{tmp}/unmarked.md", "w", encoding="utf-8").write(
    "Of FTS's 7 claims, 6 hold: FTS beats RGPE and TAF on landmine.\n")
PY
for bad in count verdict unmarked; do
  if "$py" tools/claims.py --from-stats docs/verdicts/verdicts.csv --check-docs "$tmp/$bad.md" \
      2>"$tmp/$bad.err"; then
    fail "a doc with a stale $bad passed the check"
  fi
  grep -q "$tmp/$bad.md:" "$tmp/$bad.err" || fail "the $bad problem does not name the doc: $(cat "$tmp/$bad.err")"
done
echo "claims_docs_test: ok"
