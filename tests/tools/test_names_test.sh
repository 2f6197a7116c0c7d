#!/usr/bin/env bash
# Every Catch2 test name must be one CTest test: catch_discover_tests passes the names through a
# CMake list, where an unbalanced '[' or ']' joins a name with the ones after it into one CTest
# entry that matches no test case (they then "pass" without running). Found when a name with
# "(0, 1]" swallowed 60 privacy tests. A ';' is a CMake list separator too: the CTest entry's
# name is cut there and matches no test case (30 cases "passed" that way unrun). CTest runs
# every case with -w NoTests, so an entry that matches nothing fails; this test names the cause.
#   usage: test_names_test.sh [REPO_ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# The names, also those written on the line after TEST_CASE( (perl reads each file whole).
names=$(find "$root/tests" -name '*_test.cpp' -print0 |
  xargs -0 perl -0ne 'print "$1\n" while /TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"/g')
bad=$(awk '{ o = gsub(/\[/, "["); c = gsub(/\]/, "]"); if (o != c) print }' <<<"$names")
semicolons=$(grep -F ';' <<<"$names" || true)
if [ -n "$semicolons" ]; then
  echo "FAIL: test names with a ';' (CTest would cut them there and run nothing):" >&2
  echo "$semicolons" >&2
  exit 1
fi
if [ -n "$bad" ]; then
  echo "FAIL: test names with an unbalanced bracket (CTest would merge them):" >&2
  echo "$bad" >&2
  exit 1
fi
n=$(wc -l <<<"$names")
echo "test names: all $n have balanced brackets and no ';'"
