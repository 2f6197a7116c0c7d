#!/usr/bin/env bash
# Quick start, step 2 (and CI): install what is missing, build everything (the tests too), run
# the whole test suite.
# --help prints the comment above.
case ${1:-} in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; /^#SBATCH/d; s/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tools/setup.sh
exec ctest --test-dir build --output-on-failure -j"$(nproc 2>/dev/null || echo 2)"
