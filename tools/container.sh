#!/usr/bin/env bash
# Builds an OCI image of fbosim for clusters, offline from Debian 12's packages (no image
# registry): mmdebstrap makes a Debian 12 minbase root with python3, numpy, pandas and PyYAML
# from the apt mirror this machine uses; the fbosim wheel (docs/PYTHON.md, "A wheel": the
# Python package, the fbosim program and the shared libraries they load) is installed into
# its /usr/local, with `fbosim` on PATH and the configs in /opt/fbosim/configs; podman imports
# it. Then, in the image, it runs the default experiment (compared byte for byte with this
# machine's build/fbosim when there is one), shard 1/2 of a two-point sweep and a config of
# the `python` family (an objective of your own), saves the image as a docker-archive for
# Apptainer (docs/SWEEPS.md, "A container") and prints the image's size and each step's time.
#
#   tools/container.sh [--out FILE] [--tag NAME] [--wheel FILE] [--no-test]
#
# --out: the docker-archive (default build/container/fbosim.tar); --tag: the image's name
# (default fbosim:VERSION); --wheel: install this wheel instead of making one (a wheel made
# by `pip wheel` elsewhere, for Debian 12's CPython 3.11); --no-test: build and save only.
# Needs root (or user namespaces: not tried) and Debian's mmdebstrap, podman and runc
# (installed with apt-get when missing and run as root). Takes minutes (7-8 here, measured:
# docs/SWEEPS.md, "A container"), so it is not part of the test suite.
# The wheel reuses build/ (tools/quickstart.sh) when it exists. DEBIAN_MIRROR overrides the
# mirror (default: the first of this machine's apt sources). PODMAN_RUN_OPTS replaces the
# options of `podman run`; without it the plain command is tried first, then runc with the
# open-files and processes limits set (what a sandbox without cgroup v2 and with a low hard
# limit of open files needs; it says which it uses).
# --help prints the comment above.
case ${1:-} in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
usage="usage: tools/container.sh [--out FILE] [--tag NAME] [--wheel FILE] [--no-test]"
version=$(sed -n 's/^project(fbosim VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
out=build/container/fbosim.tar tag=fbosim:$version test=1 given_wheel=
while (($#)); do
  case $1 in
    --out) out=${2:?$usage}; shift 2 ;;
    --tag) tag=${2:?$usage}; shift 2 ;;
    --wheel) given_wheel=$(realpath "${2:?$usage}"); shift 2 ;;
    --no-test) test=0; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
fail() { echo "container.sh: $*" >&2; exit 1; }
say() { echo "container.sh: $*" >&2; }
missing=()
for p in mmdebstrap podman runc patchelf python3-pip python3-wheel; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  [ "$(id -u)" -eq 0 ] || fail "missing Debian packages: ${missing[*]} (sudo apt-get install ${missing[*]})"
  say "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
mirror=${DEBIAN_MIRROR:-$(apt-get indextargets --format '$(REPO_URI)' 'Created-By: Packages' 2>/dev/null |
                          grep -m1 '/debian/$' || echo http://deb.debian.org/debian/)}
mkdir -p "$(dirname "$out")"
out=$(realpath "$out")
work=$(mktemp -d "${TMPDIR:-/tmp}/fbosim-container.XXXXXX")
trap 'rm -rf "$work"' EXIT
total=0
step() { say "$1: $2 s"; total=$((total + $2)); times+=("$1: $2 s"); }
times=()

# 1. The wheel.
SECONDS=0
export FBOSIM_BUILD_PROGRESS=stderr PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
if [ -n "$given_wheel" ]; then
  [ -f "$given_wheel" ] || fail "no wheel $given_wheel"
  wheel=$given_wheel
else
  [ ! -f build/CMakeCache.txt ] || export FBOSIM_BUILD_DIR=$root/build
  /usr/bin/python3 -m pip wheel --no-build-isolation --no-index --no-deps -w "$work/dist" . \
    >"$work/wheel.log" 2>&1 || { tail -n 30 "$work/wheel.log" >&2; fail "pip wheel (log above)"; }
  wheel=$(ls "$work"/dist/fbosim-*.whl)
fi
step "the wheel ($(basename "$wheel"), $(du -m "$wheel" | cut -f1) MiB)" $SECONDS

# 2. The root file system: Debian 12 minbase, python3 with numpy, pandas and PyYAML, without
# recommended packages or documentation; the wheel installed with this machine's pip (the
# image's python is the same Debian 3.11), so the image needs no pip.
SECONDS=0
# The image's python is Debian 12's, as this machine's: its site directory for /usr/local.
site=/usr/local/lib/$(/usr/bin/python3 -c 'import sys; print("python%d.%d" % sys.version_info[:2])')/dist-packages
say "mmdebstrap bookworm from $mirror"
mmdebstrap --variant=minbase --include=python3,python3-numpy,python3-pandas,python3-yaml \
  --aptopt='Acquire::Check-Valid-Until "false"' --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --customize-hook="/usr/bin/python3 -m pip install --quiet --no-index --no-deps --target \"\$1$site\" '$wheel'" \
  --customize-hook="ln -s $site/fbosim/bin/fbosim \"\$1/usr/local/bin/fbosim\"" \
  --customize-hook="mkdir -p \"\$1/opt/fbosim\" \"\$1/work\" && cp -r '$root/configs' \"\$1/opt/fbosim/configs\"" \
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
  bookworm "$work/rootfs.tar" "deb $mirror bookworm main" >"$work/mmdebstrap.log" 2>&1 ||
  { tail -n 30 "$work/mmdebstrap.log" >&2; fail "mmdebstrap (log above)"; }
step "the root file system ($(du -m "$work/rootfs.tar" | cut -f1) MiB tar)" $SECONDS

# 3. The image.
SECONDS=0
podman rmi --force "$tag" >/dev/null 2>&1 || true
podman import --quiet --change 'WORKDIR /work' --change 'CMD ["fbosim", "--help"]' \
  --message "fbosim $version: tools/container.sh" "$work/rootfs.tar" "$tag" >/dev/null
rm -f "$work/rootfs.tar"
size=$(podman image inspect --format '{{.Size}}' "$tag")
step "podman import ($tag, $((size / 1000000)) MB)" $SECONDS

# 4. The default experiment and a sweep shard, in the image.
if ((test)); then
  if [ -n "${PODMAN_RUN_OPTS:-}" ]; then
    read -ra run_opts <<<"$PODMAN_RUN_OPTS"
  elif podman run --rm --network none "$tag" true 2>"$work/run.err"; then
    run_opts=()
  else
    say "podman run failed ($(tail -n1 "$work/run.err")); trying runc with explicit limits"
    run_opts=(--runtime runc --ulimit nofile=4096:4096 --ulimit nproc=4096:4096)
    podman run --rm --network none "${run_opts[@]}" "$tag" true ||
      fail "podman cannot run a container here (set PODMAN_RUN_OPTS)"
  fi
  say "podman run ${run_opts[*]:-(no extra options)}"
  prun() { podman run --rm --network none "${run_opts[@]}" -v "$work/out:/work" "$tag" "$@"; }
  mkdir -p "$work/out"
  SECONDS=0
  prun fbosim run /opt/fbosim/configs/dp_fts_de/synthetic.yaml --out /work/synthetic --quiet
  [ -s "$work/out/synthetic/summary.csv" ] || fail "the default experiment wrote no summary.csv"
  step "the default experiment in the image" $SECONDS
  if [ -x build/fbosim ]; then
    build/fbosim run configs/dp_fts_de/synthetic.yaml --out "$work/host" --quiet
    for f in trace.csv server.csv summary.csv; do
      cmp -s "$work/out/synthetic/$f" "$work/host/$f" || fail "the image's $f differs from build/fbosim's"
    done
    say "its trace.csv, server.csv and summary.csv equal build/fbosim's byte for byte"
  fi
  SECONDS=0
  prun fbosim sweep /opt/fbosim/configs/dp_fts_de/synthetic.yaml --grid server.noise_multiplier=1,2 \
    --set rounds=10 --runs 2 --shard 1/2 --out /work/shard-1 --quiet
  rows=$(($(wc -l <"$work/out/shard-1/sweep.csv") - 1))
  ((rows == 1)) || fail "shard 1/2 of a two-point sweep wrote $rows rows"
  prun python3 -c 'import fbosim; print("in the image:", fbosim.version, "epsilon",
    round(fbosim.privacy.epsilon(0.25, 1.0, 40, agents=200), 6))'
  # Your own objective: a `python` family config (its plugin comes with the wheel).
  printf 'def f(x, agent, seed):\n    return -sum((v - 0.3) ** 2 for v in x)\n' >"$work/out/own.py"
  printf '%s\n' 'algorithm: dp_fts_de' 'exploration: {subregions: 2}' 'agents: {count: 4}' \
    "objective: {family: python, callable: 'own:f', inputs: 2}" 'rounds: 2' 'runs: 1' >"$work/out/own.yaml"
  prun fbosim run own.yaml --allow-exec --quiet --out /work/own
  [ -s "$work/out/own/summary.csv" ] || fail "the python-family config wrote no summary.csv"
  step "a sweep shard, the Python module and a python-family config in the image" $SECONDS
fi

# 5. The docker-archive for Apptainer.
SECONDS=0
rm -f "$out"
podman save --quiet --format docker-archive -o "$out" "$tag"
step "podman save ($out, $(du -m "$out" | cut -f1) MiB)" $SECONDS
echo "image $tag: $((size / 1000000)) MB, docker-archive $(du -m "$out" | cut -f1) MiB at $out; ${total} s in all"
printf '  %s\n' "${times[@]}"
echo "on a cluster: apptainer build fbosim.sif docker-archive:$(basename "$out")"
