#!/usr/bin/env bash
# The build id (cmake/build_info.cmake) depends only on the program's inputs (issue 28): in a
# scratch git checkout holding the repository's layout, a user's files (a config, results, a plot
# in the tracked results/figures/, a Slurm log, an edited tracked doc or tool) leave the id and
# `modified` as they were, while an edited source, an untracked source and an edited build file
# each give a new id; without git the id hashes the inputs alone likewise.
#   usage: build_id_test.sh [REPO_ROOT]   (default: this script's repository)
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
script=$root/cmake/build_info.cmake
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/src
fail() { echo "FAIL: $*" >&2; exit 1; }

# id DIR: the FBOSIM_BUILD_ID and FBOSIM_MODIFIED the script writes for DIR (build dir inside).
id() {
  rm -f "$tmp/out.hpp"
  cmake -DSRC="$1" -DOUT="$tmp/out.hpp" -DVERSION=0 -DBIN="$1/build" -P "$script" >/dev/null
  { grep -m1 "FBOSIM_BUILD_ID" "$tmp/out.hpp"; grep -m1 "FBOSIM_MODIFIED" "$tmp/out.hpp"; } | sed "s/^#define FBOSIM_\([A-Z_]*\) \(.*\)$/\1=\2/" | tr "\n" " "
}

mkdir -p "$src"/{sim/run,algorithms,datasets/gp,cmake,python/fbosim,configs,results/figures,tools,docs,tests,build}
echo 'project(x)' >"$src/CMakeLists.txt"
echo '# build' >"$src/cmake/flags.cmake"
echo 'int run() { return 1; }' >"$src/sim/run/run.cpp"
echo 'int g() { return 2; }' >"$src/datasets/gp/gp.cpp"
echo 'x = 1' >"$src/python/fbosim/__init__.py"
echo 'rounds: 5' >"$src/configs/a.yaml"
echo 'README' >"$src/results/figures/README.md"
echo '#!/bin/sh' >"$src/tools/plot.sh"
echo 'docs' >"$src/docs/GUIDE.md"
printf '/build*/\n' >"$src/.gitignore"
git -C "$src" init -q
git -C "$src" -c user.email=t@t -c user.name=t add -A
git -C "$src" -c user.email=t@t -c user.name=t commit -qm init
commit=$(git -C "$src" rev-parse HEAD)

clean=$(id "$src")
[ "$clean" = "BUILD_ID=\"$commit\" MODIFIED=0 " ] || fail "clean checkout: got '$clean'"

# A user's files, tracked folders included: nothing changes.
echo 'rounds: 7' >"$src/configs/mine.yaml"
echo 'rounds: 6' >"$src/configs/a.yaml"
echo png >"$src/results/figures/fig2a.png"
mkdir -p "$src/results/sweep" && echo 'point' >"$src/results/sweep/sweep.csv"
echo log >"$src/slurm-123_1.out"
echo 'notes' >>"$src/docs/GUIDE.md"
echo '# edited' >>"$src/tools/plot.sh"
echo 'cell' >"$src/analysis.ipynb"
echo 'object' >"$src/build/fbosim.o"
[ "$(id "$src")" = "$clean" ] || fail "user files changed the id: '$(id "$src")' != '$clean'"

# The program's inputs: each change is a new id, marked modified.
seen=("$clean")
expect_new() {
  local now
  now=$(id "$src")
  [[ $now == "BUILD_ID=\"$commit-modified-"*"MODIFIED=1 " ]] || fail "$1: got '$now'"
  for s in "${seen[@]}"; do [ "$s" != "$now" ] || fail "$1: the id did not change ('$now')"; done
  seen+=("$now")
}
echo 'int run() { return 3; }' >"$src/sim/run/run.cpp"
expect_new "an edited source"
echo 'int h() { return 4; }' >"$src/algorithms/new.cpp"
expect_new "an untracked source"
echo 'project(y)' >"$src/CMakeLists.txt"
expect_new "an edited CMakeLists.txt"
echo '# more' >>"$src/cmake/flags.cmake"
expect_new "an edited cmake/ file"
echo 'x = 2' >"$src/python/fbosim/__init__.py"
expect_new "an edited python module"

# Without git: the inputs' hash, blind to the user's files.
rm -rf "$src/.git"
nogit=$(id "$src")
[[ $nogit == 'BUILD_ID="unknown-src-'* ]] || fail "without git: got '$nogit'"
echo 'more' >"$src/configs/mine.yaml"
echo png2 >"$src/results/figures/fig2b.png"
[ "$(id "$src")" = "$nogit" ] || fail "without git, user files changed the id"
echo 'int run() { return 5; }' >"$src/sim/run/run.cpp"
[ "$(id "$src")" != "$nogit" ] || fail "without git, an edited source kept the id"
echo "build id: user files keep it, program inputs change it"
