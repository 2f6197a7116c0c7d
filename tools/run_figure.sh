#!/usr/bin/env bash
# Runs every curve of one figure: the curves are listed in the header comment of
# configs/<paper>/<figure>.yaml as "--set ..." lines; this script runs the file itself and
# each listed variant. Usage: tools/run_figure.sh [PAPER/]FIGURE [extra fbosim run options]
# (PAPER defaults to dp_fts_de: tools/run_figure.sh fig2a; tools/run_figure.sh fts/fig1a).
# tools/run_figure.sh FIGURE --curves prints how many curves it has; --curve K [options] runs
# the K-th alone (0 = the file itself, then the curve lines in order); --list prints one line per
# curve, "NAME<TAB>OVERRIDES" (tools/reproduce.sh's cost table names curves so).
# Environment: FBOSIM_BIN (default build/fbosim); FBOSIM_RESULTS, a results root: each curve
# then goes to $FBOSIM_RESULTS/<curve name>/ instead of results/<curve name>/.
# --help prints the comment above.
case ${1:-} in -h | --help) sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; /^#SBATCH/d; s/^# \{0,1\}//'; exit 0 ;; esac
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

# curves: one line per curve, "NAME<TAB>OVERRIDES" (the file itself first, no overrides).
curves() {
  local base variant name
  base=$(sed -n 's/^name:[[:space:]]*\([^[:space:]#]*\).*/\1/p;T;q' "$cfg")
  printf '%s\t\n' "${base:-${fig##*/}}"
  # Curve lines look like "# curve: --set a=b --set name=x".
  { grep -E '^# curve: ' "$cfg" || true; } | sed 's/^# curve: //' | while read -r variant; do
    name=$(sed -n 's/.*--set name=\([^[:space:]]*\).*/\1/p' <<<"$variant")
    printf '%s\t%s\n' "${name:?curve line without --set name=: $variant}" "$variant"
  done
}

# --curves: how many curves; --curve K: only the K-th (0 = the file itself), so that
# tools/reproduce.sh can run the curves of one figure at once.
only=""
case ${1:-} in
  --curves) curves | wc -l; exit 0 ;;
  --list) curves; exit 0 ;;
  --curve) only=${2:?--curve needs a number}; shift 2 ;;
esac
k=0
while IFS=$'\t' read -r name variant; do
  if [ -z "$only" ] || [ "$only" = "$k" ]; then
    # shellcheck disable=SC2086  # the curve's overrides are words
    run_curve "$name" $variant "$@"
  fi
  k=$((k + 1))
done < <(curves)
