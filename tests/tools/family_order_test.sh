#!/usr/bin/env bash
# The order of the objective families (cmake/objective_families.cmake, issue 40): the numbered
# families by ORDER, then those without one by folder name (and by call within a folder); a
# number given twice is an error that names both folders. Runs the CMake functions in script
# mode (cmake -P) on declarations of made-up folders.
#   usage: family_order_test.sh [REPO_ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# declare FOLDER ARGS...: one fbosim_objective_family call made from datasets/FOLDER.
script() {
  cat <<CMAKE
set(PROJECT_SOURCE_DIR /src)
include($root/cmake/objective_families.cmake)
macro(declare folder)
  set(CMAKE_CURRENT_SOURCE_DIR /src/datasets/\${folder})
  fbosim_objective_family(\${ARGN})
endmacro()
$1
fbosim_objective_family_order(fns headers)
message(STATUS "ORDER: \${fns}")
CMAKE
}

run() {  # run NAME DECLARATIONS: prints the order, or the error
  script "$2" >"$tmp/$1.cmake"
  # CMake wraps a message's lines: one line, single spaces.
  cmake -P "$tmp/$1.cmake" 2>&1 | tr '\n' ' ' | tr -s ' '
}

fail=0
expect() {  # expect WHAT PATTERN OUTPUT
  if grep -qF -- "$2" <<<"$3"; then echo "ok: $1"; else
    echo "FAIL: $1: expected '$2' in:" >&2
    echo "$3" >&2
    fail=1
  fi
}

# Numbered first (by number, not by folder), then the rest by folder, two calls of one folder in
# their order.
out=$(run order '
declare(zeta ORDER 20 REGISTER z HEADER z.hpp)
declare(alpha ORDER 10 REGISTER a HEADER a.hpp)
declare(wolf REGISTER w1 HEADER w.hpp)
declare(wolf REGISTER w2 HEADER w.hpp)
declare(bear REGISTER b HEADER b.hpp)
declare(aardvark REGISTER aa HEADER aa.hpp)
')
expect "numbered by ORDER, then by folder" "ORDER: a;z;aa;b;w1;w2" "$out"

# A copied folder keeps its source's number: an error naming both folders.
out=$(run clash '
declare(branin ORDER 50 REGISTER b HEADER b.hpp)
declare(my_family ORDER 50 REGISTER m HEADER m.hpp)
' || true)
expect "a number given twice names both folders" \
  "fbosim_objective_family in datasets/my_family: ORDER 50 is taken by datasets/branin" "$out"
expect "and says what to do" "leave ORDER out" "$out"
if grep -q "ORDER: " <<<"$out"; then echo "FAIL: the clash was not an error" >&2; fail=1; fi

out=$(run bad '
declare(foo ORDER first REGISTER f HEADER f.hpp)
' || true)
expect "ORDER not a number" "ORDER must be a number below 100000, got 'first'" "$out"

out=$(run missing '
declare(foo HEADER f.hpp)
' || true)
expect "REGISTER required" "fbosim_objective_family in datasets/foo: REGISTER and HEADER are required" "$out"

# The shipped folders keep the order of the docs and the messages: gp_grid's synthetic
# families first, the user-objective families last.
decls=""
for list in "$root"/datasets/*/CMakeLists.txt; do
  folder=$(basename "$(dirname "$list")")
  args=$(perl -0ne 'while (/fbosim_objective_family\(([^)]*)\)/g) { my $a = $1; $a =~ s/\s+/ /g; $a =~ s/\bDEPS\b.*//; $a =~ s/\bLIBRARY \S+//; print "$a\n" }' "$list")
  while IFS= read -r a; do
    [ -n "$a" ] && decls+="declare($folder $a)"$'\n'
  done <<<"$args"
done
out=$(run shipped "$decls")
expect "the shipped order" "ORDER: fbosim::datasets::register_synthetic_families;fbosim::datasets::register_landmine_family;fbosim::datasets::register_landmine_logistic_family;fbosim::datasets::register_activity_family;fbosim::datasets::register_emnist_family;fbosim::datasets::branin::register_branin_family;fbosim::datasets::test_function::register_test_function_family;fbosim::datasets::table::register_table_family;fbosim::datasets::command::register_command_family;fbosim::datasets::python::register_python_family" "$out"
exit $fail
