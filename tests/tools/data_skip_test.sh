#!/usr/bin/env bash
# Issue 43: without the data sets, a data test is skipped, never failed. Runs every test case of
# the given Catch2 executables (the landmine and EMNIST unit tests), or the one named after
# EXE::, one at a time as CTest does, with FBOSIM_DATA pointing at an empty folder: each exits 0
# (needs no data) or 77 (skipped) after exactly one line naming the missing path and
# tools/fetch_datasets.sh; none fails; and at least MIN of them are skipped (the cases that
# read the data).
# Usage: data_skip_test.sh MIN TEST_EXECUTABLE[::TEST NAME]...
set -euo pipefail
min=${1:?usage: data_skip_test.sh MIN TEST_EXECUTABLE...}
shift
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
skipped=0 ran=0 bad=0
for arg in "$@"; do
  exe=${arg%%::*}
  if [ "$exe" != "$arg" ]; then list=(printf '%s\n' "${arg#*::}"); else list=("$exe" --list-test-names-only); fi
  while IFS= read -r name; do
    [ -n "$name" ] || continue
    ran=$((ran + 1))
    rc=0
    spec=${name//,/\\,}  # a comma separates Catch2's test specs
    spec=${spec//[/\\[}
    out=$(FBOSIM_DATA=$empty "$exe" "$spec" 2>&1) || rc=$?
    if grep -q "No test cases matched" <<<"$out"; then
      echo "FAIL: $(basename "$exe") has no test case \"$name\"" >&2
      bad=$((bad + 1))
      continue
    fi
    if ((rc == 77)); then
      skipped=$((skipped + 1))
      lines=$(grep -c "tools/fetch_datasets.sh" <<<"$out" || true)
      if ((lines != 1)) || ! grep -q "skipped: no $empty/" <<<"$out"; then
        echo "FAIL: $(basename "$exe") \"$name\" skipped without one line naming $empty/... and tools/fetch_datasets.sh:" >&2
        echo "$out" >&2
        bad=$((bad + 1))
      fi
    elif ((rc != 0)); then
      echo "FAIL: $(basename "$exe") \"$name\" exited $rc without the data:" >&2
      tail -n 20 <<<"$out" >&2
      bad=$((bad + 1))
    fi
  done < <("${list[@]}")
done
echo "data_skip_test: $ran test cases, $skipped skipped without the data, $bad wrong"
((bad == 0)) || exit 1
((skipped >= min)) || { echo "FAIL: only $skipped skipped, expected at least $min" >&2; exit 1; }
