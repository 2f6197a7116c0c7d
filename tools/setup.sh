#!/usr/bin/env bash
# Installs the Debian 12 packages fbosim needs (only those missing) and builds it in Release.
# Sourced by tools/quickstart.sh and tools/run_tests.sh; safe to run on its own.
# --help prints the comment above.
case ${1:-} in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; /^#SBATCH/d; s/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(build-essential cmake libeigen3-dev libyaml-cpp-dev libcli11-dev libboost-dev
          catch2 libfmt-dev liblbfgspp-dev libsvm-dev libmatio-dev libfftw3-dev libssl-dev pkg-config
          python3-matplotlib python3-pandas python3-numpy python3-scipy pybind11-dev python3-dev
          python3-yaml python3-sklearn)
# python3-sklearn: only for tests/tools/sklearn_reference.py, which checks fbosim's port of the
# landmine split the papers' authors drew with scikit-learn (every index).
# Slurm (slurm-wlm, munge) is not listed: only the Slurm test needs it, and
# tools/slurm_cluster.sh installs it when it runs as root (docs/SWEEPS.md, "Slurm").
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "fbosim: installing missing Debian packages: ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p build
echo "fbosim: building in build/ (log: build/build.log)" >&2
if ! { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFBOSIM_WERROR=ON &&
       cmake --build build -j"$jobs"; } >build/build.log 2>&1; then
  tail -n 40 build/build.log >&2
  echo "fbosim: build failed; the whole log is build/build.log" >&2
  exit 1
fi
