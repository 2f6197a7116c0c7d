#!/usr/bin/env bash
# DP-FTS-DE App. B.2.6 (Dai, Low & Jaillet, NeurIPS 2021): the agents' extra cost of DE. The
# paper: in the landmine experiment the step of an agent that follows the server (Algo. 2 line
# 7-8: maximise phi(x)^T omega_t^(i[x]) over the P sub-regions) "takes on average 14.47s and
# 17.96s to compute for P = 1 and P = 4". Here, per P, each round's wall time (timing.csv,
# rounds >= 1) is fitted per run by least squares to a x (the agents that followed the server
# that round, trace.csv's source column) + b x (those that took their own TS step): a is the
# seconds of one server-following step, b of one own step, each with its objective evaluation
# and a share of the server's aggregation. Prints a Markdown table: per P, a and b as mean +-
# standard error over the runs, and a / b. The agents of a round run one after another on one
# thread (--threads 1).
#
#   tools/de_cost.sh [--config FILE] [--p "1 4"] [--runs R] [--rounds T]
#
# --config defaults to configs/dp_fts_de/landmine.yaml (needs the landmine data: FBOSIM_DATA);
# P = 1 runs `algorithm: dp_fts`, P > 1 `dp_fts_de` with exploration.subregions = P, everything
# else the config's. Environment: FBOSIM_BIN (default build/fbosim), FBOSIM_DATA.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
config=configs/dp_fts_de/landmine.yaml ps="1 4" runs=10 rounds=10
while (($#)); do
  case $1 in
    --config) config=${2:?}; shift ;;
    --p) ps=${2:?}; shift ;;
    --runs) runs=${2:?}; shift ;;
    --rounds) rounds=${2:?}; shift ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "de_cost.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
bin=${FBOSIM_BIN:-build/fbosim}
[ -x "$bin" ] || { echo "de_cost.sh: no fbosim binary at $bin" >&2; exit 2; }
[ -f "$config" ] || { echo "de_cost.sh: no config $config" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# steps DIR: per run, the least-squares fit of each round's seconds (rounds >= 1) to
# a x (agents that followed the server) + b x (agents that took their own step), each step with
# its evaluation; prints "a mean +- se | b mean +- se | a / b" over the runs.
steps() {
  awk -F, '
    FNR == 1 { file++; next }
    file == 1 { if ($3 > 0) { if ($NF == "server") s[$1 "," $3]++; else l[$1 "," $3]++ } next }
    $2 > 0 {
      k = $1 "," $2; x = s[k] + 0; z = l[k] + 0; r = $1; runs[r] = 1
      ss[r] += x * x; sl[r] += x * z; ll[r] += z * z; sy[r] += x * $3; ly[r] += z * $3
    }
    END {
      for (r in runs) {
        det = ss[r] * ll[r] - sl[r] * sl[r]
        if (det <= 0) continue
        a = (sy[r] * ll[r] - ly[r] * sl[r]) / det; b = (ly[r] * ss[r] - sy[r] * sl[r]) / det
        n++; A += a; A2 += a * a; B += b; B2 += b * b
      }
      if (!n) { printf "no run to fit | | "; exit }
      sa = 0; sb = 0
      if (n > 1) { sa = sqrt((A2 - A * A / n) / (n - 1) / n); sb = sqrt((B2 - B * B / n) / (n - 1) / n) }
      printf "%.4g +- %.2g | %.4g +- %.2g | %.3f", A / n, sa, B / n, sb, (A / n) / (B / n)
    }' "$1/trace.csv" "$1/timing.csv"
}
echo "| P | s / step following the server (line 7-8) | s / own TS step | ratio |"
echo "|---|---|---|---|"
for p in $ps; do
  out=$tmp/p$p
  if [ "$p" = 1 ]; then alg=(--set algorithm=dp_fts --set exploration.subregions=1)
  else alg=(--set algorithm=dp_fts_de --set exploration.subregions="$p"); fi
  "$bin" run "$config" --set datasets.root="${FBOSIM_DATA:-data}" "${alg[@]}" \
    --set rounds="$rounds" --runs "$runs" --threads 1 --quiet --set name=de_cost --out "$out" >/dev/null
  echo "| $p | $(steps "$out") |"
done
