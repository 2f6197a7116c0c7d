#!/usr/bin/env bash
# Makes a self-contained copy of the fbosim program to carry to a machine without Debian 12's
# packages (a cluster running another Linux; docs/SWEEPS.md, "What a cluster needs"):
#
#   tools/bundle.sh [--binary PATH] DIR        # PATH: build/fbosim by default
#
# DIR/fbosim is a launcher; DIR/lib holds the program (lib/fbosim) and every shared library it
# loads, glibc and its dynamic loader included, copied from this machine. The launcher runs the
# program through the bundled loader with only DIR/lib as library path, so nothing of the
# other machine's libraries is used: the bundle runs on any x86-64 Linux (kernel 3.2 or later,
# glibc 2.36's minimum) and gives the bytes the program gives here. DIR/MANIFEST lists the
# program's version line, each library with its Debian package and version, and SHA-256 sums.
# The launcher may be called through a symlink, from any directory; `FBOSIM=DIR/fbosim` is
# what tools/slurm_sweep.sh runs then (it snapshots the whole bundle).
# Not bundled: the LibTorch plugin of the EMNIST objective (its LibTorch is about 1 GB); the
# bundle runs every other objective. DIR must not exist: it is written under a temporary name
# and renamed when complete. About 25 MB.
# --help prints the comment above.
case ${1:-} in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
usage="usage: tools/bundle.sh [--binary PATH] DIR"
binary=build/fbosim
if [ "${1:-}" = --binary ]; then
  binary=${2:?$usage}
  shift 2
fi
dir=${1:?$usage}
(($# == 1)) || { echo "$usage" >&2; exit 2; }
fail() { echo "bundle.sh: $*" >&2; exit 1; }
[ -f "$binary" ] && [ -x "$binary" ] || fail "$binary is not an executable file (build it first)"
[ ! -e "$dir" ] || fail "$dir exists: give a new directory (or remove it)"
command -v ldd >/dev/null || fail "ldd is missing (Debian: libc-bin)"

# Every library the loader would map (ldd resolves the whole tree), and the loader itself.
libs=() loader=""
while read -r line; do
  case $line in
    *"=> not found"*) fail "$binary needs ${line%% *}, which is not found here" ;;
    *" => /"*) p=${line#* => }; libs+=("${p%% (*}") ;;
    /*ld-linux*) loader=${line%% (*} ;;
  esac
done < <(ldd "$binary")
[ -n "$loader" ] || fail "ldd names no dynamic loader for $binary (a static or foreign binary?)"
case $(basename "$loader") in ld-linux-x86-64.so.2) ;; *) fail "only x86-64 is bundled, not $loader" ;; esac

tmp=$(dirname "$dir")/.$(basename "$dir").tmp.$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lib"
cp -L "$binary" "$tmp/lib/fbosim"
cp -L "$loader" "$tmp/lib/ld-linux-x86-64.so.2"
for l in "${libs[@]}"; do cp -L "$l" "$tmp/lib/$(basename "$l")"; done
# OpenSSL (the program's SHA-256) reads its configuration from a path compiled in, which on
# another distribution may hold options this OpenSSL does not know: an empty one instead.
: >"$tmp/lib/openssl.cnf"
cat >"$tmp/fbosim" <<'EOF'
#!/bin/sh
# fbosim, bundled by tools/bundle.sh: the program and its libraries run through the bundled
# dynamic loader, which uses only this bundle's lib/ (not LD_LIBRARY_PATH, not the system's).
here=$(dirname "$(readlink -f "$0")")
OPENSSL_CONF=${OPENSSL_CONF:-$here/lib/openssl.cnf}
export OPENSSL_CONF
exec "$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib" --argv0 "$0" \
  "$here/lib/fbosim" "$@"
EOF
chmod +x "$tmp/fbosim"
touch "$tmp/.fbosim-bundle"  # tools/slurm_sweep.sh copies a bundle whole

{
  echo "fbosim bundle made by tools/bundle.sh on $(uname -n) at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "program: $(realpath "$binary")"
  echo "version: $("$tmp/fbosim" --version | head -n 1)"
  echo "libraries (file, Debian package, version):"
  for l in "$loader" "${libs[@]}"; do
    pkg=$(dpkg -S "$(realpath "$l")" 2>/dev/null | head -n 1 | cut -d: -f1 || true)
    [ -n "$pkg" ] || pkg=$(dpkg -S "$l" 2>/dev/null | head -n 1 | cut -d: -f1 || true)
    ver=$([ -n "$pkg" ] && dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
    echo "  $(basename "$l") ${pkg:-?} ${ver:-?}"
  done
  echo "sha256:"
  (cd "$tmp" && find . -type f ! -name MANIFEST -printf '%P\n' | sort | xargs sha256sum | sed 's/^/  /')
} >"$tmp/MANIFEST"
# The bundle must run before it is published (a missing library shows here, not on the cluster).
"$tmp/fbosim" privacy --q 0.25 --z 1 --steps 40 --agents 200 >/dev/null ||
  fail "the bundle in $tmp does not run"
mv -T "$tmp" "$dir" || fail "cannot rename $tmp to $dir"
trap - EXIT
echo "bundle.sh: $dir/fbosim ($(du -sh "$dir" | cut -f1)), $(( ${#libs[@]} + 1 )) libraries; see $dir/MANIFEST"
