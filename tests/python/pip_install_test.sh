#!/usr/bin/env bash
# CTest "python: pip install . into a venv and into the system python's user site, import from
# anywhere" (issue 28 sec. 1; docs/PYTHON.md, "Install"): the two documented offline installs,
# with Debian's python3, setuptools, wheel and pybind11 and nothing downloaded (--no-index):
#  1. a venv made with --system-site-packages (so it sees Debian's numpy and pandas), under the
#     build tree; `pip install --no-build-isolation --no-index SOURCE`;
#  2. the system python itself, into a user site (PYTHONUSERBASE under the build tree, so the
#     machine's own site directories are untouched): `pip install --user
#     --break-system-packages ...` (Debian 12's pip refuses it without that flag: PEP 668;
#     checked too).
# Each then imports fbosim from another directory (the module must come from the install, not
# the checkout or the build tree), computes the paper's epsilon and runs a tiny experiment; the
# venv's is uninstalled again. The checkout must stay as it was (no egg-info or build/lib in
# the sources, which would change the build id). FBOSIM_BUILD_DIR=BUILD_DIR reuses the suite's
# build tree: only fbosim_python is brought up to date, nothing is compiled again.
# Usage: pip_install_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$(realpath "${1:?usage: pip_install_test.sh SOURCE_DIR BUILD_DIR}")
build=$(realpath "${2:?usage: pip_install_test.sh SOURCE_DIR BUILD_DIR}")
python=/usr/bin/python3
work=$build/pip-install-test
fail() { echo "FAIL: $*" >&2; exit 1; }
for m in venv pip setuptools wheel; do
  "$python" -c "import $m" 2>/dev/null ||
    fail "Debian's python3 lacks $m: apt-get install python3-venv python3-pip (tools/setup.sh)"
done
rm -rf "$work"
mkdir -p "$work/elsewhere"
unset PYTHONPATH PYTHONHOME PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_FIND_LINKS
export FBOSIM_BUILD_DIR=$build PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
status_before=$(git -C "$src" status --porcelain --ignored=no 2>/dev/null || true)
pip_opts=(--no-build-isolation --no-index --quiet)

# The check run by each installed interpreter, from a directory that is neither the checkout
# nor the build tree: check PYTHON SITE (the directory fbosim must be imported from).
check() {
  (cd "$work/elsewhere" && "$1" - "$2" "$src" <<'EOF')
import os, sys, tempfile
site, src = sys.argv[1], sys.argv[2]
import fbosim
where = os.path.realpath(fbosim.__file__)
if not where.startswith(os.path.realpath(site) + os.sep):
    sys.exit(f"fbosim imported from {where}, not from the install under {site}")
eps = fbosim.privacy.epsilon(0.25, 1.0, 40, agents=200, delta_rule="paper")
if abs(eps - 9.908479) > 1e-5:  # DP-FTS-DE sec. 5.1: q = 0.25, z = 1, T = 40, N = 200
    sys.exit(f"epsilon {eps}, want 9.908479")
cfg = os.path.join(src, "configs", "dp_fts_de", "synthetic.yaml")
t = fbosim.run(cfg, ["agents.count=4", "rounds=2", "objective.grid_points=100"], runs=1,
               threads=1, progress=False)
if list(t["summary"]["round"]) != [0, 1, 2] or t["info"]["runs"] != 1:
    sys.exit(f"tiny run: summary rounds {list(t['summary']['round'])}, info {t['info']}")
print(f"  fbosim {fbosim.version.split()[1]} from {where}: epsilon {eps:.6f}, a tiny run")
EOF
}

# 1. A venv seeing Debian's packages.
"$python" -m venv --system-site-packages "$work/venv"
venv_py=$work/venv/bin/python
"$venv_py" -m pip install "${pip_opts[@]}" "$src" || fail "pip install into the venv"
site=$("$venv_py" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')
check "$venv_py" "$site"
"$venv_py" -m pip uninstall --yes --quiet fbosim || fail "pip uninstall fbosim"
if (cd "$work/elsewhere" && "$venv_py" -c 'import fbosim' 2>/dev/null); then
  fail "fbosim still imports after pip uninstall"
fi

# 2. The system python, into a user site under the build tree.
export PYTHONUSERBASE=$work/user
if "$python" -m pip install --user "${pip_opts[@]}" "$src" 2>"$work/refused.txt"; then
  fail "Debian's pip installed into the system python without --break-system-packages"
fi
grep -q "externally-managed-environment" "$work/refused.txt" ||
  fail "the refusal is not PEP 668's: $(cat "$work/refused.txt")"
"$python" -m pip install --user --break-system-packages "${pip_opts[@]}" "$src" ||
  fail "pip install --user --break-system-packages"
check "$python" "$("$python" -c 'import site; print(site.getusersitepackages())')"

status_after=$(git -C "$src" status --porcelain --ignored=no 2>/dev/null || true)
[ "$status_before" = "$status_after" ] ||
  fail "pip install changed the checkout: $(diff <(echo "$status_before") <(echo "$status_after"))"
rm -rf "$work"
echo "pip install . (venv --system-site-packages; system python --user --break-system-packages): fbosim imports from anywhere and runs"
