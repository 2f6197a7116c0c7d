#!/usr/bin/env bash
# CTest "tools: bundle.sh carries fbosim with its libraries, which alone it loads" (issue 28
# sec. 6; docs/SWEEPS.md): tools/bundle.sh FBOSIM DIR, then
#  1. DIR/lib holds the program, glibc's loader and libc, and the MANIFEST names them;
#  2. the launcher, called through a symlink from another directory with a clean environment
#     and a LD_LIBRARY_PATH pointing elsewhere, maps every library from DIR/lib and none from
#     the system (LD_DEBUG=libs: after the bundled loader starts, each `calling init:` is in
#     DIR/lib);
#  3. its --version, `privacy` output and a tiny run's trace.csv, server.csv and summary.csv
#     equal the program's own, byte for byte;
#  4. an existing DIR and a missing program are refused, and leave nothing.
# Usage: bundle_test.sh FBOSIM_BINARY
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fbosim=$(realpath "${1:?usage: bundle_test.sh FBOSIM_BINARY}")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fbosim-bundle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
b=$tmp/bundle

"$root/tools/bundle.sh" --binary "$fbosim" "$b" >/dev/null || fail "tools/bundle.sh exited $?"
# 1.
for f in fbosim lib/fbosim lib/ld-linux-x86-64.so.2 lib/libc.so.6 lib/libstdc++.so.6 MANIFEST; do
  [ -f "$b/$f" ] || fail "the bundle lacks $f"
done
cmp -s "$fbosim" "$b/lib/fbosim" || fail "lib/fbosim is not a copy of $fbosim"
grep -q "^  libc.so.6 libc6 " "$b/MANIFEST" || fail "MANIFEST does not name libc.so.6's package"
[ -z "$(ls -A "$tmp" | grep -v '^bundle$')" ] || fail "temporary files left: $(ls -A "$tmp")"

# 2. From elsewhere, through a symlink, with a hostile library path.
mkdir "$tmp/elsewhere"
ln -s "$b/fbosim" "$tmp/elsewhere/fb"
cd "$tmp/elsewhere"
clean=(env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu:/nonexistent)
"${clean[@]}" LD_DEBUG=libs ./fb privacy --q 0.25 --z 1 --steps 40 --agents 200 \
  >/dev/null 2>"$tmp/ld_debug.txt" || fail "the bundle does not run (LD_DEBUG in ld_debug.txt)"
# The launcher's own shell and tools load the system's libc before the exec: only the lines of
# a process after it first mentions the bundle are the program's.
awk -v lib="$b/lib/" '
  { pid = $1 }
  index($0, lib) { started[pid] = 1 }
  started[pid] && /calling init:/ {
    path = $NF; inits++
    if (index(path, lib) != 1) { print "  loaded from outside the bundle: " path; bad = 1 }
  }
  END { if (inits < 10) { print "  only " inits + 0 " libraries seen initialised"; bad = 1 }
        exit bad }' "$tmp/ld_debug.txt" || fail "the program used a library outside $b/lib"

# 3. The same bytes as the program itself.
[ "$("${clean[@]}" ./fb --version)" = "$("$fbosim" --version)" ] || fail "--version differs"
p=(privacy --q 0.25 --z 1 --steps 10,40 --agents 200 --accountant pld)
[ "$("${clean[@]}" ./fb "${p[@]}")" = "$("$fbosim" "${p[@]}")" ] || fail "privacy output differs"
run=(run "$root/configs/dp_fts_de/synthetic.yaml" --set agents.count=6 --set rounds=3 --runs 2
     --threads 2 --quiet)
"${clean[@]}" ./fb "${run[@]}" --out "$tmp/from-bundle" >/dev/null || fail "run from the bundle"
"$fbosim" "${run[@]}" --out "$tmp/from-build" >/dev/null || fail "run from $fbosim"
for f in trace.csv server.csv summary.csv config.resolved.yaml; do
  cmp -s "$tmp/from-bundle/$f" "$tmp/from-build/$f" || fail "$f differs between bundle and program"
done

# 4. Refusals leave nothing.
cd "$tmp"
if "$root/tools/bundle.sh" --binary "$fbosim" "$b" 2>/dev/null; then fail "an existing DIR was overwritten"; fi
if "$root/tools/bundle.sh" --binary "$tmp/nope" "$tmp/b2" 2>/dev/null; then fail "a missing program was bundled"; fi
[ ! -e "$tmp/b2" ] || fail "a refused bundle left $tmp/b2"
[ -z "$(ls -A "$tmp" | grep '^\.')" ] || fail "a refused bundle left $(ls -A "$tmp" | grep '^\.')"
echo "bundle.sh: the bundle runs from anywhere on its own libraries only, with the program's bytes"
