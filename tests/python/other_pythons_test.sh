#!/usr/bin/env bash
# CTest "python: pip install . into venvs without Debian's site packages and of another
# CPython, offline" (docs/PYTHON.md, "Install", "Which Pythons"): the installs a user of a
# CPython other than Debian's makes, with no package index (--no-index) and BUILD_DIR reused
# (FBOSIM_BUILD_DIR: nothing is compiled again). Each venv is made WITHOUT
# --system-site-packages; numpy and pandas come from a directory holding only Debian's numpy,
# pandas and what they import (dateutil, pytz, six), named in a .pth file: a CPython "with
# numpy and pandas" and nothing else of Debian's (no setuptools >= 61, no wheel, no pybind11).
# Debian's numpy is built for CPython 3.11, so the other CPython must be a 3.11 (pyenv's here).
#  1. Debian's python3, build isolation fed by Debian's wheel files:
#       pip install --no-index --find-links /usr/share/python-wheels SOURCE
#  2. pyenv's CPython 3.11 (another build of 3.11, the same ABI), the same command;
#  3. pyenv's 3.11 with --no-build-isolation: its venv has setuptools 65 and no `wheel`
#     (before the build backend's fallback: "invalid command 'bdist_wheel'");
#  4. a venv whose setuptools is older than 61 (pyenv's 3.9 has 58.1) with
#     --no-build-isolation stops before building, naming setuptools>=61 and the command.
# Each install is then imported from another directory, computes the paper's epsilon and runs a
# tiny experiment. A case whose interpreter is not on this machine is reported as not run; the
# last line lists the interpreters tested. Skipped (77) when Debian's python3 has no venv
# module or Debian's wheel files are missing (python3-setuptools-whl, python3-wheel-whl).
# Usage: other_pythons_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$(realpath "${1:?usage: other_pythons_test.sh SOURCE_DIR BUILD_DIR}")
build=$(realpath "${2:?usage: other_pythons_test.sh SOURCE_DIR BUILD_DIR}")
debian=/usr/bin/python3
wheels=/usr/share/python-wheels
fail() { echo "FAIL: $*" >&2; exit 1; }
"$debian" -c 'import venv, ensurepip' 2>/dev/null ||
  { echo "skipped: $debian has no venv module (apt-get install python3-venv)"; exit 77; }
ls "$wheels"/setuptools-*.whl "$wheels"/wheel-*.whl >/dev/null 2>&1 ||
  { echo "skipped: no Debian wheel files of setuptools and wheel in $wheels (apt-get install python3-setuptools-whl python3-wheel-whl)"; exit 77; }
pyenv_root=${PYENV_ROOT:-$HOME/.pyenv}
other311=$(ls -d "$pyenv_root"/versions/3.11.*/bin/python3 2>/dev/null | tail -n1 || true)
old=$(ls -d "$pyenv_root"/versions/3.9.*/bin/python3 2>/dev/null | tail -n1 || true)
work=$(mktemp -d /tmp/fbosim-other-pythons.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
unset PYTHONPATH PYTHONHOME PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_FIND_LINKS PYTHONUSERBASE
export FBOSIM_BUILD_DIR=$build FBOSIM_BUILD_PROGRESS=stderr PIP_NO_CACHE_DIR=1 \
  PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore

# numpy, pandas and what they import, alone.
mkdir "$work/np" "$work/elsewhere"
for name in numpy numpy-*.egg-info pandas pandas-*.egg-info dateutil python_dateutil-*.egg-info \
            pytz pytz-*.egg-info six.py six-*.egg-info; do
  for p in /usr/lib/python3/dist-packages/$name; do
    [ -e "$p" ] || fail "Debian's $name is missing (python3-numpy, python3-pandas)"
    ln -s "$p" "$work/np/"
  done
done
cat >"$work/check.py" <<'EOF'
import os, sys
venv, src = sys.argv[1], sys.argv[2]
import numpy, fbosim
where = os.path.realpath(fbosim.__file__)
assert where.startswith(os.path.realpath(venv) + os.sep), where
# numpy through the venv's .pth (the link directory), not a system site directory
assert os.path.dirname(numpy.__file__).startswith(sys.argv[3]), numpy.__file__
eps = fbosim.privacy.epsilon(0.25, 1.0, 40, agents=200, delta_rule="paper")
assert abs(eps - 9.908479) < 1e-5, eps  # DP-FTS-DE sec. 5.1: q = 0.25, z = 1, T = 40, N = 200
t = fbosim.run(os.path.join(src, "configs", "dp_fts_de", "synthetic.yaml"),
               ["agents.count=4", "rounds=2", "objective.grid_points=100"], runs=1, threads=1,
               progress=False, out_dir=os.path.join(venv, "run"))
assert list(t["summary"]["round"]) == [0, 1, 2], list(t["summary"]["round"])
print(f"  python {sys.version.split()[0]} ({sys.executable}): fbosim from {os.path.dirname(where)}, "
      f"epsilon {eps:.6f}, a tiny run")
EOF

# venv NAME PYTHON: a venv without system site packages, with numpy and pandas only.
venv() {
  "$2" -m venv "$work/$1"
  local site
  site=$("$work/$1/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
  echo "$work/np" >"$site/numpy_pandas_only.pth"
  if "$work/$1/bin/python" -c 'import wheel' 2>/dev/null; then fail "$1: the venv has wheel"; fi
}
# install NAME PIP_OPTIONS...: pip install into venv NAME, its log in NAME.log; then the check.
install() {
  local name=$1; shift
  SECONDS=0
  "$work/$name/bin/python" -m pip install -v --no-index "$@" "$src" >"$work/$name.log" 2>&1 ||
    { tail -n 30 "$work/$name.log" >&2; fail "$name: pip install --no-index $*"; }
  echo "  $name: pip install --no-index $* in $SECONDS s"
  (cd "$work/elsewhere" && "$work/$name/bin/python" "$work/check.py" "$work/$name" "$src" "$work/np") ||
    fail "$name: the installed package"
}
tested=("$("$debian" --version | cut -d' ' -f2) (Debian, $debian)")

# 1.
venv debian "$debian"
install debian --find-links "$wheels"

# 2. and 3.
if [ -n "$other311" ]; then
  venv other "$other311"
  install other --find-links "$wheels"
  venv other-noiso "$other311"
  install other-noiso --no-build-isolation
  grep -q "fbosim: no \`wheel\` package in this environment; using Debian's $wheels/wheel-" \
    "$work/other-noiso.log" || fail "other-noiso: no line saying Debian's wheel is used"
  tested+=("$("$other311" --version | cut -d' ' -f2) ($other311)")
else
  echo "  not run: no pyenv CPython 3.11 under $pyenv_root/versions (cases 2 and 3)"
fi

# 4.
if [ -n "$old" ] && [ "$("$old" -c 'import setuptools; print(int(setuptools.__version__.split(".")[0]) < 61)' 2>/dev/null)" = True ]; then
  "$old" -m venv "$work/old"
  if "$work/old/bin/python" -m pip install --no-index --no-build-isolation "$src" >"$work/old.log" 2>&1; then
    fail "old: pip install with setuptools < 61 succeeded"
  fi
  grep -q "older than 61" "$work/old.log" && grep -q "find-links $wheels" "$work/old.log" ||
    fail "old: not the message naming setuptools>=61: $(tail -n 5 "$work/old.log")"
  echo "  $("$old" --version): setuptools < 61 under --no-build-isolation is refused, naming the fix"
else
  echo "  not run: no CPython 3.9 with setuptools < 61 under $pyenv_root/versions (case 4)"
fi
printf 'pip install . offline into venvs without Debian site packages works with: %s\n' "$(IFS=';'; echo "${tested[*]}")"
