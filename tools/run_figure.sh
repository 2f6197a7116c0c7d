#!/usr/bin/env bash
# Runs every curve of one synthetic figure: the curves are listed in the header comment of
# configs/dp_fts_de/<figure>.yaml as "--set ..." lines; this script runs the file itself and
# each listed variant. Usage: tools/run_figure.sh fig2a [extra fbosim run options]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
fig=${1:?usage: tools/run_figure.sh FIGURE [fbosim run options]}
shift
cfg=configs/dp_fts_de/$fig.yaml
[ -f "$cfg" ] || { echo "no such config: $cfg" >&2; exit 2; }
bin=build/fbosim
"$bin" run "$cfg" "$@"
# Curve lines look like "# curve: --set a=b --set name=x".
grep -E '^# curve: ' "$cfg" | sed 's/^# curve: //' | while read -r variant; do
  # shellcheck disable=SC2086
  "$bin" run "$cfg" $variant "$@"
done
