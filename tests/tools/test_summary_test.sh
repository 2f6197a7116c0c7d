#!/usr/bin/env bash
# tools/test_summary.py (the last line of tools/run_tests.sh) on a real ctest run: a tiny CMake
# project with a passing test, a failing one, one skipped without the data (its output names
# tools/fetch_datasets.sh, as tests/data_sets.hpp prints) and one skipped for another reason.
# Usage: test_summary_test.sh SOURCE_DIR
set -euo pipefail
root=${1:?usage: test_summary_test.sh SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(summary NONE)
enable_testing()
add_test(NAME "a: passes" COMMAND sh -c "echo fine")
add_test(NAME "b: passes too" COMMAND sh -c "exit 0")
add_test(NAME "c: no data" COMMAND sh -c "echo 'skipped: no /d/landmine (tools/fetch_datasets.sh downloads the data sets)'; exit 77")
add_test(NAME "d: no slurm" COMMAND sh -c "echo 'no slurm here' >&2; exit 77")
add_test(NAME "e: fails" COMMAND sh -c "echo wrong; exit 1")
set_tests_properties("c: no data" "d: no slurm" PROPERTIES SKIP_RETURN_CODE 77)
CMAKE
cmake -S "$tmp" -B "$tmp/b" >/dev/null
ctest --test-dir "$tmp/b" --output-junit "$tmp/j.xml" >/dev/null 2>&1 || true
got=$(python3 "$root/tools/test_summary.py" "$tmp/j.xml")
want="skipped: 1 without the data sets (tools/fetch_datasets.sh downloads them), 1 other
tests: 2 passed, 1 failed, 2 skipped"
[ "$got" = "$want" ] || { printf 'FAIL: got  %s\nwant %s\n' "$got" "$want" >&2; exit 1; }
if python3 "$root/tools/test_summary.py" "$tmp/missing.xml" 2>/dev/null; then
  echo "FAIL: a missing JUnit file was not an error" >&2; exit 1
fi
# run_tests.sh prints that line last, from the JUnit file ctest writes.
grep -q -- '--output-junit "$junit"' "$root/tools/run_tests.sh" &&
  tail -n 3 "$root/tools/run_tests.sh" | grep -q 'tools/test_summary.py "$junit"' ||
  { echo "FAIL: tools/run_tests.sh does not end with tools/test_summary.py on ctest's JUnit file" >&2; exit 1; }
echo "test_summary_test: $got"
