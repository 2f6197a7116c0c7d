#!/usr/bin/env bash
# Quick start, step 2 (and CI): install what is missing, build, run the whole test suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tools/setup.sh
exec ctest --test-dir build --output-on-failure -j"$(nproc 2>/dev/null || echo 2)"
