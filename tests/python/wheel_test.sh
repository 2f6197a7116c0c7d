#!/usr/bin/env bash
# CTest "python: the wheel installs into a fresh venv and runs without the build tree" (docs/
# PYTHON.md, "A wheel"): `pip wheel` makes a wheel (reusing BUILD_DIR: nothing is compiled
# again) that carries the shared libraries it needs (fbosim/_libs, RUNPATH $ORIGIN); it is
# installed into a fresh venv of the same python in a temporary directory away from the
# checkout, and run where neither the checkout nor the build tree can be seen and where
# Debian's copies of the libraries it bundles are hidden:
#  1. the wheel holds fbosim/_core, fbosim/bin/fbosim and fbosim/_libs, and every RUNPATH is
#     relative ($ORIGIN...), none naming the build tree;
#  2. `pip install --no-index WHEEL` into `python3 -m venv --system-site-packages` (Debian's
#     numpy and pandas), with no compiler on PATH (CC, CXX and cmake unusable);
#  3. in a private mount namespace (unshare -m, as root) with the checkout covered by an empty
#     directory and /dev/null over Debian's libyaml-cpp, FFTW, NLopt, libsvm, matio, fmt and
#     HDF5, it imports fbosim (from the venv), computes the paper's epsilon, runs a tiny
#     experiment and a two-point sweep (the bundled fbosim program), and a config of the
#     `python` family with that program (its plugin from the wheel). Where no mount namespace
#     can be made, ldd checks instead that every library resolves into the venv or the system.
# Skipped (77) when Debian's python3 has no venv module (python3-venv).
# Usage: wheel_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$(realpath "${1:?usage: wheel_test.sh SOURCE_DIR BUILD_DIR}")
build=$(realpath "${2:?usage: wheel_test.sh SOURCE_DIR BUILD_DIR}")
python=/usr/bin/python3
fail() { echo "FAIL: $*" >&2; exit 1; }
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  echo "skipped: $python has no venv module (apt-get install python3-venv; tools/setup.sh)"
  exit 77
fi
command -v patchelf >/dev/null || fail "no patchelf: apt-get install patchelf (tools/setup.sh)"
work=$(mktemp -d /tmp/fbosim-wheel-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
unset PYTHONPATH PYTHONHOME PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_FIND_LINKS PYTHONUSERBASE
export PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
export FBOSIM_BUILD_PROGRESS=stderr

# 1. The wheel.
SECONDS=0
FBOSIM_BUILD_DIR=$build "$python" -m pip wheel --no-build-isolation --no-index --no-deps \
  -w "$work/dist" "$src" >"$work/wheel.log" 2>&1 || { tail -n 40 "$work/wheel.log" >&2; fail "pip wheel"; }
built=$SECONDS
wheel=$(ls "$work"/dist/fbosim-*.whl) || fail "pip wheel made no fbosim-*.whl"
mkdir "$work/unpacked"
(cd "$work/unpacked" && "$python" -m zipfile -e "$wheel" .)
pkg=$work/unpacked/fbosim
ls "$pkg"/_core*.so "$pkg/bin/fbosim" >/dev/null || fail "the wheel lacks _core or bin/fbosim"
nlibs=$(ls "$pkg/_libs" | wc -l)
[ "$nlibs" -gt 0 ] || fail "the wheel bundles no library (fbosim/_libs is empty)"
for f in "$pkg"/_core*.so "$pkg/bin/fbosim" "$pkg"/_libs/*; do
  runpath=$(readelf -d "$f" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  case $runpath in
    '$ORIGIN'*) ;;
    *) fail "$(basename "$f"): RUNPATH '$runpath', not relative to \$ORIGIN" ;;
  esac
done
ls "$pkg/_libs" | grep -q '^libyaml-cpp' || fail "libyaml-cpp is not bundled: $(ls "$pkg/_libs")"

# 2. A fresh venv, no compiler.
"$python" -m venv --system-site-packages "$work/venv"
mkdir "$work/nocompiler"
for tool in cc c++ gcc g++ cmake ninja make; do
  printf '#!/bin/sh\necho "no compiler here: $0" >&2\nexit 1\n' >"$work/nocompiler/$tool"
  chmod +x "$work/nocompiler/$tool"
done
export PATH=$work/nocompiler:$work/venv/bin:/usr/bin:/bin:/usr/sbin:/sbin CC=$work/nocompiler/cc CXX=$work/nocompiler/c++
SECONDS=0
"$work/venv/bin/python" -m pip install --no-index --quiet "$wheel" || fail "pip install of the wheel"
installed=$SECONDS
cp "$src/configs/dp_fts_de/synthetic.yaml" "$work/synthetic.yaml"

cat >"$work/check.py" <<'EOF'
import os, sys
work = sys.argv[1]
import fbosim
where = os.path.realpath(fbosim.__file__)
assert where.startswith(os.path.realpath(os.path.join(work, "venv")) + os.sep), where
eps = fbosim.privacy.epsilon(0.25, 1.0, 40, agents=200, delta_rule="paper")
assert abs(eps - 9.908479) < 1e-5, eps  # DP-FTS-DE sec. 5.1: q = 0.25, z = 1, T = 40, N = 200
cfg = os.path.join(work, "synthetic.yaml")
t = fbosim.run(cfg, ["agents.count=4", "rounds=2", "objective.grid_points=100"], runs=1,
               threads=1, progress=False, out_dir=os.path.join(work, "run"))
assert list(t["summary"]["round"]) == [0, 1, 2], list(t["summary"]["round"])
s = fbosim.sweep(cfg, grid={"rounds": [1, 2]}, out=os.path.join(work, "sweep"), runs=1,
                 overrides=["agents.count=4", "objective.grid_points=100"], jobs=1, threads=1,
                 progress=False)
assert list(s["points"]["rounds"]) == [1, 2], s["points"]
# A config of the `python` family run by the bundled program: its plugin comes from the wheel.
import subprocess, fbosim._sweep
with open(os.path.join(work, "own.py"), "w") as f:
    f.write("def f(x, agent, seed):\n    return -sum((v - 0.3) ** 2 for v in x)\n")
with open(os.path.join(work, "own.yaml"), "w") as f:
    f.write("algorithm: dp_fts_de\nexploration: {subregions: 2}\nagents: {count: 4}\n"
            "objective: {family: python, callable: 'own:f', inputs: 2}\nrounds: 2\nruns: 1\n")
r = subprocess.run([fbosim._sweep.executable(), "run", "own.yaml", "--allow-exec", "--quiet",
                    "--out", os.path.join(work, "own")], cwd=work, capture_output=True, text=True)
assert r.returncode == 0, r.stderr
assert os.path.exists(os.path.join(work, "own", "summary.csv"))
print(f"  fbosim {fbosim.version.split()[1]} from {os.path.dirname(where)}: epsilon {eps:.6f}, "
      "a tiny run, a two-point sweep, a python-family run of the bundled program")
EOF

# 3. Run it where the checkout and Debian's copies of the bundled libraries cannot be seen.
hidden=()
for lib in libyaml-cpp.so.0.7 libfftw3.so.3 libnlopt.so.0 libsvm.so.3 libmatio.so.11 libfmt.so.9 \
           libhdf5_serial.so.103; do
  # awk reads to the end: an early exit would end ldconfig by SIGPIPE, which pipefail and
  # set -e turn into a silent failure of the whole test, depending on the scheduling.
  p=$(ldconfig -p | awk -v l="$lib" '$1 == l && !found {print $NF; found = 1}')
  [ -n "$p" ] && hidden+=("$(realpath "$p")")
done
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
  mkdir "$work/empty"
  unshare -m bash -euo pipefail -c '
    work=$1 src=$2; shift 2
    mount --make-rprivate /
    mount --bind "$work/empty" "$src"
    for l in "$@"; do mount --bind /dev/null "$l"; done
    [ ! -e "$src/CMakeLists.txt" ] || { echo "FAIL: the checkout is still visible" >&2; exit 1; }
    cd "$work" && "$work/venv/bin/python" "$work/check.py" "$work"
  ' _ "$work" "$src" "${hidden[@]}" || fail "the installed wheel, with the checkout and ${#hidden[@]} system libraries hidden"
  how="the checkout and ${#hidden[@]} of Debian's libraries hidden (unshare -m)"
else
  so=$(ls "$work"/venv/lib/python3*/site-packages/fbosim/_core*.so)
  if ldd "$so" "$(dirname "$so")/bin/fbosim" | grep -E "not found|$src|$build"; then
    fail "the installed module loads a library from the checkout or finds none"
  fi
  (cd "$work" && "$work/venv/bin/python" "$work/check.py" "$work") || fail "the installed wheel"
  how="no mount namespace here: checked with ldd instead"
fi
echo "wheel $(basename "$wheel") ($(du -m "$wheel" | cut -f1) MiB, $nlibs libraries bundled): built in ${built} s, installed in ${installed} s, ran with $how"
