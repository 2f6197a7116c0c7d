#!/usr/bin/env bash
# Quick start, step 2 (and CI): install what is missing, build everything (the tests too), run
# the whole test suite. Without the data sets (../shared/datasets or $FBOSIM_DATA), the tests
# that read them are skipped, each saying so in one line; the last line counts passed, failed
# and skipped tests, and the skipped ones without the data (tools/fetch_datasets.sh downloads
# them, checking their SHA-256). Arguments are passed to ctest (e.g. -R 'golden').
# --help prints the comment above.
case ${1:-} in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; /^#SBATCH/d; s/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tools/setup.sh
junit=$PWD/build/Testing/junit.xml
rm -f "$junit"
status=0
ctest --test-dir build --output-on-failure -j"$(nproc 2>/dev/null || echo 2)" \
  --output-junit "$junit" "$@" || status=$?
python3 tools/test_summary.py "$junit" || true
exit "$status"
