#!/usr/bin/env bash
# Golden traces: a tiny version (2 runs, 6 agents, 6 rounds) of every config in configs/ and of
# every curve its header lists ("# curve: --set ..."), pinned byte for byte in tests/golden/.
#
#   tools/golden.sh list                  the case names, one a line
#   tools/golden.sh check [CASE...]       run each case and diff trace/server/summary.csv
#                                         (and release.csv where a system writes one)
#                                         against tests/golden/CASE/ (exit 1 on a difference,
#                                         77 when a case cannot run here: no data)
#   tools/golden.sh update [CASE...]      rewrite tests/golden/CASE/ from this build; review the
#                                         diff (git diff --stat tests/golden) and commit it alone,
#                                         saying why the numbers changed
#
# A case is <paper>/<config> or <paper>/<config>@<curve name>. Environment: FBOSIM_BIN (default
# build/fbosim); FBOSIM_DATA (default ../shared/datasets) for landmine and EMNIST. Activity runs
# on a generated UCI HAR tree (tests/golden/make_har_fixture.py): no copy of the data set is here.
# EMNIST's CNN gives the same bits on every x86-64 CPU, so its files are compared everywhere.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${FBOSIM_BIN:-$root/build/fbosim}
data=${FBOSIM_DATA:-$root/../shared/datasets}
golden=$root/tests/golden
tiny=(--runs 2 --seed 0 --threads 2 --quiet --set agents.count=6 --set rounds=6)
skip=77
fetch="tools/fetch_datasets.sh downloads the data sets"

usage() { sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# cases: every config, then its curves, as "case<TAB>config<TAB>overrides".
cases() {
  local cfg rel variant name
  for cfg in "$root"/configs/*/*.yaml; do
    rel=${cfg#"$root"/configs/}
    rel=${rel%.yaml}
    printf '%s\t%s\t\n' "$rel" "$cfg"
    { grep -E '^# curve: ' "$cfg" || true; } | sed 's/^# curve: //' | while read -r variant; do
      name=$(sed -n 's/.*--set name=\([^[:space:]]*\).*/\1/p' <<<"$variant")
      printf '%s@%s\t%s\t%s\n' "$rel" "${name:?curve line without --set name=: $variant}" "$cfg" \
        "$variant"
    done
  done
}

# family CONFIG: the objective family the config uses.
family() { sed -n 's/.*family:[[:space:]]*\([a-z_]*\).*/\1/p' "$1" | head -n 1; }

# run_case CASE CONFIG OVERRIDES OUT: one tiny run into OUT; returns $skip when it cannot run.
run_case() {
  local case=$1 cfg=$2 variant=$3 out=$4 extra=()
  case $(family "$cfg") in
    landmine | landmine_logistic)
      [ -f "$data/landmine/LandmineData.mat" ] || { echo "skipped $case: no $data/landmine ($fetch)" >&2; return $skip; }
      extra=(--set "datasets.root=$data") ;;
    emnist)
      [ -d "$data/femnist_digits" ] || { echo "skipped $case: no $data/femnist_digits ($fetch)" >&2; return $skip; }
      extra=(--set "datasets.root=$data" --set objective.epochs=2) ;;
    activity)
      python3 "$golden/make_har_fixture.py" "$out.data/har/UCI HAR Dataset"
      extra=(--set "datasets.root=$out.data") ;;
  esac
  # shellcheck disable=SC2086  # the curve's overrides are words
  "$bin" run "$cfg" "${tiny[@]}" $variant "${extra[@]}" --out "$out" >/dev/null
}

select_cases() {
  if (($# == 0)); then cases; return; fi
  local want found
  for want in "$@"; do
    found=$(cases | awk -F'\t' -v c="$want" '$1 == c')
    [ -n "$found" ] || { echo "golden: no case '$want' (tools/golden.sh list)" >&2; exit 2; }
    printf '%s\n' "$found"
  done
}

main() {
  local mode=${1:-}
  [ -n "$mode" ] || usage
  shift
  case $mode in
    list) cases | cut -f1; return ;;
    check | update) ;;
    *) usage ;;
  esac
  [ -x "$bin" ] || { echo "golden: no fbosim binary at $bin (build it, or set FBOSIM_BIN)" >&2; exit 2; }
  local status=0 skipped=0 n=0 case cfg variant f
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  while IFS=$'\t' read -r case cfg variant; do
    n=$((n + 1))
    local out=$tmp/${case//[\/@]/_}
    local rc=0
    run_case "$case" "$cfg" "$variant" "$out" </dev/null || rc=$?
    if ((rc == skip)); then skipped=$((skipped + 1)); continue; fi
    ((rc == 0)) || { echo "FAIL $case: fbosim run exited $rc" >&2; status=1; continue; }
    for f in trace.csv server.csv summary.csv release.csv; do
      # server.csv only where a server aggregates, release.csv only where a system releases
      # results after its last round; a pinned file the run no longer writes is a difference.
      if [ ! -f "$out/$f" ]; then
        [[ $mode == check && -f $golden/$case/$f ]] || continue
        echo "FAIL $case: the run wrote no $f, tests/golden/$case/$f exists" >&2
        status=1
        continue
      fi
      if [ "$mode" = update ]; then
        mkdir -p "$golden/$case"
        cp "$out/$f" "$golden/$case/$f"
      elif [ ! -f "$golden/$case/$f" ]; then
        echo "FAIL $case: no tests/golden/$case/$f (tools/golden.sh update $case writes it)" >&2
        status=1
      elif ! cmp -s "$out/$f" "$golden/$case/$f"; then
        echo "FAIL $case: $f differs from tests/golden/$case/$f" >&2
        diff "$golden/$case/$f" "$out/$f" 2>&1 | head -n 6 >&2 || true
        status=1
      fi
    done
  done < <(select_cases "$@")
  echo "golden $mode: $n case(s), $skipped skipped, $([ $status = 0 ] && echo ok || echo FAILED)"
  if ((status == 0 && n > 0 && skipped == n)); then return $skip; fi
  return $status
}

main "$@"
