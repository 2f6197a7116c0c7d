#!/usr/bin/env bash
# Issue 43: after the quick start, a plain `pip install .` (no FBOSIM_BUILD_DIR) reuses the
# checkout's configured build/ when it fits the installing python, says so, and shows the
# build's progress; what it installs carries fbosim.sweep's program and fbosim.plot's modules.
#  1. setup.py's misfit() on made-up CMake caches: another source, no Python module, another
#     extension suffix are refused, naming why; a cache like the quick start's fits.
#  2. `pip install -v --no-build-isolation --no-index SOURCE` into a venv of Debian's python3
#     (--system-site-packages): the "reusing the configured build/" line, the build's progress
#     lines, no build/pip-* directory made, the time it took; then, from another directory, a
#     sweep and a figure with the installed package alone.
# Skipped (77) when BUILD_DIR is not SOURCE_DIR/build (the quick start's layout).
# Usage: pip_reuse_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$(realpath "${1:?usage: pip_reuse_test.sh SOURCE_DIR BUILD_DIR}")
build=$(realpath "${2:?usage: pip_reuse_test.sh SOURCE_DIR BUILD_DIR}")
python=/usr/bin/python3
fail() { echo "FAIL: $*" >&2; exit 1; }
if [ "$(realpath "$src/build" 2>/dev/null || true)" != "$build" ]; then
  echo "skipped: the build tree $build is not $src/build, which pip install . would reuse"
  exit 77
fi
work=$build/pip-reuse-test
rm -rf "$work"
mkdir -p "$work/elsewhere"

# 1. misfit() on made-up caches (setup() itself replaced: only the functions are wanted).
"$python" - "$src" "$work" <<'PY'
import os, runpy, sys, sysconfig
import setuptools
src, work = sys.argv[1], sys.argv[2]
setuptools.setup = lambda **kw: None
os.chdir(src)
ns = runpy.run_path(os.path.join(src, "setup.py"))
suffix = sysconfig.get_config_var("EXT_SUFFIX")
def cache(name, lines):
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "CMakeCache.txt"), "w") as f:
        f.write("# a made-up cache\n" + "".join(f"{l}\n" for l in lines))
    return d
good = [f"CMAKE_HOME_DIRECTORY:INTERNAL={src}", "FBOSIM_PYTHON:BOOL=ON",
        f"PYTHON_MODULE_EXTENSION:INTERNAL={suffix}", "PYTHON_EXECUTABLE:FILEPATH=/usr/bin/python3"]
assert ns["misfit"](cache("good", good)) is None, ns["misfit"](cache("good", good))
for name, lines, words in [
        ("other-source", [l.replace(src, "/elsewhere") for l in good], ["/elsewhere", src]),
        ("no-module", good[:2], ["no pybind11"]),
        ("python-off", [good[0], "FBOSIM_PYTHON:BOOL=OFF"] + good[2:], ["FBOSIM_PYTHON=OFF"]),
        ("other-abi", good[:2] + ["PYTHON_MODULE_EXTENSION:INTERNAL=.cpython-39-x86_64-linux-gnu.so"],
         [".cpython-39-x86_64-linux-gnu.so", suffix])]:
    why = ns["misfit"](cache(name, lines))
    assert why and all(w in why for w in words), (name, why)
assert "no CMakeCache.txt" in ns["misfit"](os.path.join(work, "none"))
print("misfit: the quick start's cache fits; another source, no module, OFF, another ABI named")
PY

# 2. The install itself.
unset PYTHONPATH PYTHONHOME PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_FIND_LINKS FBOSIM_BUILD_DIR
export PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
export FBOSIM_BUILD_PROGRESS=stderr  # no terminal here: the lines go where pip -v shows them
before=$(ls -d "$src"/build/pip-* 2>/dev/null || true)
"$python" -m venv --system-site-packages "$work/venv"
SECONDS=0
"$work/venv/bin/python" -m pip install -v --no-build-isolation --no-index "$src" \
  >"$work/pip.log" 2>&1 || { tail -n 40 "$work/pip.log" >&2; fail "pip install"; }
seconds=$SECONDS
grep -q "fbosim: reusing the configured $src/build" "$work/pip.log" ||
  fail "pip install . did not say it reuses build/: $(grep '^ *fbosim:' "$work/pip.log" | head -5)"
grep -q "fbosim: cmake --build $src/build --target fbosim_python fbosim" "$work/pip.log" ||
  fail "no progress line of the build in pip's output"
[ "$(ls -d "$src"/build/pip-* 2>/dev/null || true)" = "$before" ] || fail "a build/pip-* was made"
(cd "$work/elsewhere" && "$work/venv/bin/python" - "$src" "$work" <<'PY') || fail "the installed package"
import os, sys
src, work = sys.argv[1], sys.argv[2]
import fbosim
import fbosim._sweep
site = os.path.realpath(os.path.dirname(fbosim.__file__))
assert site.startswith(os.path.realpath(os.path.join(work, "venv")) + os.sep), site
exe = fbosim._sweep.executable()
assert exe == os.path.join(site, "bin", "fbosim"), exe
cfg = os.path.join(src, "configs", "dp_fts_de", "synthetic.yaml")
s = fbosim.sweep(cfg, grid={"rounds": [1, 2]}, out=os.path.join(work, "sweep"), runs=1,
                 overrides=["agents.count=4", "objective.grid_points=100"], jobs=1, threads=1,
                 progress=False)
assert list(s["points"]["rounds"]) == [1, 2], s["points"]
png = fbosim.plot(os.path.join(work, "sweep"), labels=["one round", "two rounds"],
                  formats=["png"])
assert os.path.getsize(png) > 0
assert os.path.realpath(sys.modules["plot_results"].__file__).startswith(site + os.sep)
print(f"  installed in {site}: sweep with {exe}, figure {os.path.basename(png)}")
PY
rm -rf "$work"
echo "pip install . reused build/ (no FBOSIM_BUILD_DIR) in ${seconds} s, with progress; the installed package sweeps and plots"
