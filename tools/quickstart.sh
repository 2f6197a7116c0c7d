#!/usr/bin/env bash
# Quick start, step 1: install what is missing, build the program, run the default experiment
# (configs/dp_fts_de/synthetic.yaml: DP-FTS-DE, P = 2, N = 200, 5 runs) into results/synthetic/.
# --help prints the comment above.
case ${1:-} in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; /^#SBATCH/d; s/^# \{0,1\}//'; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Only what the default experiment needs (the program, and the EMNIST plugin it loads when
# LibTorch is installed): tools/run_tests.sh builds the rest (the tests).
tools/setup.sh fbosim
exec build/fbosim run configs/dp_fts_de/synthetic.yaml "$@"
