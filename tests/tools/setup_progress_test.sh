#!/usr/bin/env bash
# tools/setup.sh (issue 28, section 1): the quick start builds only the targets it names
# (tools/quickstart.sh: fbosim) and shows the build's progress on stderr, a line per source and
# per target, while build/build.log keeps everything; with no target it builds everything (the
# tests: tools/run_tests.sh). Runs a copy of the script against a stub `cmake` that records its
# arguments and prints CMake's progress lines (no real build; the Debian packages must be
# installed, as they are wherever the suite runs, so nothing is installed).
#   usage: setup_progress_test.sh [REPO_ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$tmp/tree/tools" "$tmp/bin"
cp "$root/tools/setup.sh" "$root/tools/quickstart.sh" "$tmp/tree/tools/"
cat >"$tmp/bin/cmake" <<'STUB'
#!/usr/bin/env bash
echo "cmake $*" >>"$STUB_LOG"
if [ "$1" = --build ]; then
  echo "[ 10%] Building CXX object CMakeFiles/fbosim_core.dir/core/thread_pool.cpp.o"
  echo "warning: a compiler message"
  echo "[ 20%] Built target fbosim_core"
  echo "[100%] Linking CXX executable fbosim"
  # Ninja's lines for a unity batch and a library.
  echo "[3/75] Building CXX object CMakeFiles/fbosim_config.dir/Unity/unity_1_cxx.cxx.o"
  echo "[4/75] Linking CXX static library libfbosim_config.a"
fi
STUB
chmod +x "$tmp/bin/cmake"
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/ninja"  # a Ninja on PATH
chmod +x "$tmp/bin/ninja"
# A dpkg-query that reports every package installed: no apt-get.
printf '#!/bin/sh\nprintf "install ok installed"\n' >"$tmp/bin/dpkg-query"
chmod +x "$tmp/bin/dpkg-query"
export STUB_LOG=$tmp/cmake.log PATH=$tmp/bin:$PATH

bash "$tmp/tree/tools/setup.sh" fbosim 2>"$tmp/err" ||
  fail "setup.sh fbosim: $(cat "$tmp/err")"
grep -q -- "--build build -j[0-9]* --target fbosim$" "$tmp/cmake.log" ||
  fail "setup.sh fbosim did not build only the fbosim target: $(cat "$tmp/cmake.log")"
grep -qx "fbosim: \[ 10%\] core/thread_pool.cpp" "$tmp/err" || fail "no source line: $(cat "$tmp/err")"
grep -qx "fbosim: \[ 20%\] built fbosim_core" "$tmp/err" || fail "no target line: $(cat "$tmp/err")"
grep -qx "fbosim: \[3/75\] fbosim_config, unity batch 1" "$tmp/err" || fail "no unity line: $(cat "$tmp/err")"
grep -qx "fbosim: \[4/75\] built fbosim_config" "$tmp/err" || fail "no Ninja target line: $(cat "$tmp/err")"
! grep -q "warning: a compiler message" "$tmp/err" || fail "compiler output on stderr"
# A new build/ is configured for Ninja; one that exists keeps its generator.
grep -q -- "^cmake -G Ninja -S . -B build " "$tmp/cmake.log" || fail "a new build/ not Ninja: $(cat "$tmp/cmake.log")"
: >"$tmp/cmake.log"
touch "$tmp/tree/build/CMakeCache.txt"
bash "$tmp/tree/tools/setup.sh" fbosim 2>"$tmp/err" || fail "setup.sh fbosim again: $(cat "$tmp/err")"
grep -q -- "^cmake -S . -B build " "$tmp/cmake.log" || fail "an existing build/ given -G: $(cat "$tmp/cmake.log")"
grep -q "warning: a compiler message" "$tmp/tree/build/build.log" || fail "build.log lacks the output"
# quickstart.sh asks for fbosim alone.
grep -q "^tools/setup.sh fbosim$" "$tmp/tree/tools/quickstart.sh" || fail "quickstart.sh builds more"
# No target: everything.
: >"$tmp/cmake.log"
bash "$tmp/tree/tools/setup.sh" 2>"$tmp/err" || fail "setup.sh: $(cat "$tmp/err")"
grep -q -- "--build build -j[0-9]*$" "$tmp/cmake.log" || fail "setup.sh without a target: $(cat "$tmp/cmake.log")"
# A machine without the packages (a dpkg-query that knows none, an apt-get that records its
# arguments): the quick start installs what the build needs and nothing the tests alone need;
# no target installs both; never the recommended packages.
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/dpkg-query"
printf '#!/bin/sh\necho "apt-get $*" >>"$STUB_LOG.apt"\n' >"$tmp/bin/apt-get"
printf '#!/bin/sh\n"$@"\n' >"$tmp/bin/sudo"
chmod +x "$tmp/bin/dpkg-query" "$tmp/bin/apt-get" "$tmp/bin/sudo"
bash "$tmp/tree/tools/setup.sh" fbosim 2>"$tmp/err" || fail "setup.sh fbosim, no packages: $(cat "$tmp/err")"
install=$(grep " install " "$STUB_LOG.apt") || fail "no apt-get install: $(cat "$STUB_LOG.apt")"
for p in build-essential cmake ninja-build libeigen3-dev libmatio-dev libsvm-dev catch2 --no-install-recommends; do
  [[ " $install " == *" $p "* ]] || fail "the quick start does not install $p: $install"
done
for p in python3-matplotlib python3-sklearn python3-nbclient pybind11-dev; do
  [[ " $install " != *" $p "* ]] || fail "the quick start installs the tests' $p: $install"
done
: >"$STUB_LOG.apt"
bash "$tmp/tree/tools/setup.sh" 2>"$tmp/err" || fail "setup.sh, no packages: $(cat "$tmp/err")"
install=$(grep " install " "$STUB_LOG.apt") || fail "no apt-get install: $(cat "$STUB_LOG.apt")"
for p in build-essential catch2 python3-matplotlib python3-sklearn pybind11-dev --no-install-recommends; do
  [[ " $install " == *" $p "* ]] || fail "setup.sh without a target does not install $p: $install"
done
echo "setup.sh: the named targets only, with progress lines; the quick start's packages only"
