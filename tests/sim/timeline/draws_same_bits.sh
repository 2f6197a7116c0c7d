#!/usr/bin/env bash
# The time line's draws give the same bits whichever code path glibc picks for the CPU: the
# probe's hashes with glibc's defaults and with its FMA and AVX2 paths disabled
# (GLIBC_TUNABLES) must be equal. glibc's own log differs in 550 of 10^7 arguments between the
# two (docs/TIME.md), so a draw through it would change a hash. Skipped (77) on a CPU without
# FMA, where both runs take the same path and the comparison shows nothing.
#   usage: draws_same_bits.sh PROBE
set -euo pipefail
probe=$1
if ! grep -qw fma /proc/cpuinfo; then
  echo "skipped: this CPU has no FMA, glibc's paths are the same"
  exit 77
fi
a=$("$probe")
b=$(GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-AVX2 "$probe")
if [ "$a" != "$b" ]; then
  echo "FAIL: the draws depend on glibc's code path:" >&2
  diff <(echo "$a") <(echo "$b") >&2 || true
  exit 1
fi
echo "the same bits with and without glibc's FMA paths:"
echo "$a"
