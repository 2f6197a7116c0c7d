#!/usr/bin/env bash
# Runs every curve of one figure: the curves are listed in the header comment of
# configs/<paper>/<figure>.yaml as "--set ..." lines; this script runs the file itself and
# each listed variant. Usage: tools/run_figure.sh [PAPER/]FIGURE [extra fbosim run options]
# (PAPER defaults to dp_fts_de: tools/run_figure.sh fig2a; tools/run_figure.sh fts/fig1a).
# Environment: FBOSIM_BIN (default build/fbosim); FBOSIM_RESULTS, a results root: each curve
# then goes to $FBOSIM_RESULTS/<curve name>/ instead of results/<curve name>/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
fig=${1:?usage: tools/run_figure.sh [PAPER/]FIGURE [fbosim run options]}
shift
case $fig in
  */*) cfg=configs/$fig.yaml ;;
  *) cfg=configs/dp_fts_de/$fig.yaml ;;
esac
[ -f "$cfg" ] || { echo "no such config: $cfg" >&2; exit 2; }
bin=${FBOSIM_BIN:-build/fbosim}
[ -x "$bin" ] || { echo "no fbosim binary at $bin (build it, or set FBOSIM_BIN)" >&2; exit 2; }

# run_curve NAME [options]: one fbosim run, into $FBOSIM_RESULTS/NAME when that is set.
run_curve() {
  local name=$1
  shift
  local out=()
  [ -z "${FBOSIM_RESULTS:-}" ] || out=(--out "$FBOSIM_RESULTS/$name")
  "$bin" run "$cfg" "$@" "${out[@]}"
}

base=$(sed -n 's/^name:[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$cfg" | head -n 1)
run_curve "${base:-${fig##*/}}" "$@"
# Curve lines look like "# curve: --set a=b --set name=x".
grep -E '^# curve: ' "$cfg" | sed 's/^# curve: //' | while read -r variant; do
  name=$(sed -n 's/.*--set name=\([^[:space:]]*\).*/\1/p' <<<"$variant")
  # shellcheck disable=SC2086
  run_curve "${name:?curve line without --set name=: $variant}" $variant "$@"
done
