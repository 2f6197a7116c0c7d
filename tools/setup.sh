#!/usr/bin/env bash
# Installs the Debian 12 packages fbosim needs (only those missing: with TARGETs only what the
# build needs, with none also what the tests need) and builds it in Release.
# Run by tools/quickstart.sh and tools/run_tests.sh; safe to run on its own.
#   tools/setup.sh [TARGET...]   builds only TARGETs (quickstart: fbosim); none: everything, the
#                                tests included (run_tests.sh)
# The build shows its progress on stderr (one line per source compiled and per target built,
# with CMake's percentage); the whole log is build/build.log.
# --help prints the comment above.
case ${1:-} in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; /^#SBATCH/d; s/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# What the program needs to build (tools/quickstart.sh installs only these: on a fresh machine
# apt spends its time unpacking and configuring packages). catch2 is here because CMake's
# configure step looks for it (the tests' targets are declared, not built, by the quick start).
build_packages=(build-essential cmake ninja-build pkg-config libeigen3-dev libyaml-cpp-dev libcli11-dev
                libboost-dev libfmt-dev liblbfgspp-dev libsvm-dev libmatio-dev libfftw3-dev
                libssl-dev nlohmann-json3-dev libnlopt-dev catch2)
# What the tests, the figures and the Python module need besides (tools/run_tests.sh, or
# tools/setup.sh with no target).
test_packages=(python3-matplotlib python3-pandas python3-numpy python3-scipy pybind11-dev
               python3-dev python3-yaml python3-sklearn python3-mpmath
               python3-venv python3-pip python3-setuptools python3-wheel
               python3-setuptools-whl python3-wheel-whl patchelf
               python3-tqdm python3-nbclient python3-nbformat python3-ipykernel)
# nlohmann-json3-dev: the `command` objective family's JSON lines. python3-mpmath:
# tests/tools/fig11_privacy_reference.py (DP-FTS-DE Fig. 11's epsilons at 50 digits). python3-sklearn:
# tests/tools/sklearn_reference.py, which checks fbosim's port of the landmine split the
# papers' authors drew with scikit-learn (every index), and the examples of user objectives
# (examples/). pybind11-dev and python3-dev: the Python module and the `python` family's
# embedding plugin (a quick start without them builds fbosim without the plugin; the family
# then says so, and tools/setup.sh with no target installs them and builds it).
# python3-venv, -pip, -setuptools, -wheel: `pip install .` of the Python package, offline
# (docs/PYTHON.md "Install"; CTest "python: pip install . ..."). python3-setuptools-whl,
# -wheel-whl: the same as wheel files, which feed pip's isolated build offline for a venv of
# any CPython (pip install --no-index --find-links /usr/share/python-wheels .). patchelf: the
# package's shared libraries bundled with RUNPATH $ORIGIN (docs/PYTHON.md "A wheel").
# mmdebstrap and podman are not listed: only tools/container.sh needs them, and installs them
# when it runs as root (docs/SWEEPS.md, "A container"). python3-tqdm: fbosim.run's
# progress bar (a plain line without it). python3-nbclient, -nbformat, -ipykernel: the suite
# executes examples/tutorial.ipynb in a Jupyter kernel (its cells as a script without them).
# Slurm (slurm-wlm, munge) is not listed: only the Slurm test needs it, and
# tools/slurm_cluster.sh installs it when it runs as root (docs/SWEEPS.md, "Slurm").
packages=("${build_packages[@]}")
(($#)) || packages+=("${test_packages[@]}")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "fbosim: installing missing Debian packages: ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  # --no-install-recommends: only what these packages depend on (a third fewer packages to
  # unpack than with the recommended ones; nothing fbosim uses is only recommended).
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p build
# A new build/ uses Ninja: unlike Make it compiles a library's sources without waiting for the
# libraries it links (0.92x the fresh build's time on 2 cores, docs/BENCHMARKS.md "Build
# time"). An existing build/ keeps its generator (CMake refuses to switch one).
generator=()
[ -f build/CMakeCache.txt ] || ! command -v ninja >/dev/null || generator=(-G Ninja)
targets=()
for t in "$@"; do targets+=(--target "$t"); done
echo "fbosim: building ${*:-everything (the tests included)} in build/ (log: build/build.log)" >&2
# Progress: the generator's lines for each compilation and target (Ninja's "[12/60] Building
# CXX object CMakeFiles/fbosim_config.dir/Unity/unity_0_cxx.cxx.o", "[13/60] Linking CXX static
# library libfbosim_config.a"; Make's "[ 42%] ..." and "Built target"), shortened to
# "fbosim: [12/60] fbosim_config, unity batch 0" or "fbosim: [ 42%] sim/config/x.cpp" (a build
# without unity batches); everything goes to the log.
progress() {
  sed -nu \
    -e 's|^\(\[[ 0-9/%]*\]\) Building [A-Z]* object [^ ]*/\([^/ ]*\)\.dir/Unity/unity_\([0-9]*\)_[a-z]*\.[a-z]*\.o$|fbosim: \1 \2, unity batch \3|p' \
    -e 's|^\(\[[ 0-9/%]*\]\) Building [A-Z]* object [^ ]*\.dir/\(.*\)\.o$|fbosim: \1 \2|p' \
    -e 's|^\(\[[ 0-9/%]*\]\) Linking [A-Z]* [a-z ]*library [^ ]*/\{0,1\}lib\([^ /]*\)\.a$|fbosim: \1 built \2|p' \
    -e 's|^\(\[[ 0-9/%]*\]\) Linking [A-Z]* executable \(.*\)$|fbosim: \1 linking \2|p' \
    -e 's|^\(\[[ 0-9/%]*\]\) Built target \(.*\)$|fbosim: \1 built \2|p' >&2
}
if ! { cmake "${generator[@]}" -S . -B build -DCMAKE_BUILD_TYPE=Release -DFBOSIM_WERROR=ON &&
       cmake --build build -j"$jobs" "${targets[@]}"; } 2>&1 | tee build/build.log | progress; then
  tail -n 40 build/build.log >&2
  echo "fbosim: build failed; the whole log is build/build.log" >&2
  exit 1
fi
