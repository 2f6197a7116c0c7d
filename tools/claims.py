#!/usr/bin/python3
"""Checks the papers' claims (docs/claims/*.yaml) on results, with power: for each claim, the
per-run utility of both curves averaged over the claim's iterations, their paired difference
run by run (the same run index sees the same functions and initial points: common random
numbers), its standard error over runs, and a verdict:
  better      holds if the difference exceeds 2 standard errors in the claimed direction,
              contradicted if it exceeds 2 standard errors the other way, else not resolved;
  comparable  two one-sided tests (TOST, 5 % each) against the claim's equivalence margin m:
              holds if the 90 % interval diff +- t(0.95, n - 1) s.e. lies inside (-m, m),
              contradicted if it lies wholly beyond m or -m, else not resolved (the interval
              is too wide to show either). m: `margin` in the claims file (metric units), or
              `margin_fraction` (default 0.5) of the absolute difference measured for the
              "better" claim `margin_from` names (an effect the paper reports in the same or a
              sister figure); without a result for that claim, or where it does not hold
              (the effect is not established), the margin is unknown: not resolved.
Utility: simple regret on the synthetic functions, best validation error 1 - best_f on real
data (per run: the mean over the measured agents: every agent, or the target of FTS's
target-agent runs).

    tools/claims.py [--results DIR] [--splits DIR ...] [--claims FILE ...] [--out FILE.md]
                    [--study NAME --stats-out docs/verdicts/verdicts.csv]
    tools/claims.py --from-stats docs/verdicts/verdicts.csv [--out docs/FIDELITY.md]
    tools/claims.py --from-stats docs/verdicts/verdicts.csv --check-docs DOC ...
    tools/claims.py --self-test

The committed verdict table (since 2026-12-02): --stats-out writes each claim's measured difference,
standard error, runs and iterations as rows of study NAME (a key of docs/verdicts/studies.yaml)
in a CSV, replacing that study's rows; --from-stats recomputes every verdict from such a CSV by
the rules below and renders docs/FIDELITY.md with per-study counts; --check-docs checks every
count of claims a doc quotes (marked `N<!-- count: STUDY IDS VERDICT -->`) and every marked
verdict against it, and refuses unmarked counts (tools/claims_table.py).

Without --out the table goes to stdout. Claims whose results are missing are listed as such.
A claims file that is not valid (YAML, keys, rounds [FIRST, LAST]), a result name outside
--results, or a trace.csv / config.resolved.yaml that is damaged (tools/fbosim_results.py: a
NaN best_f, a regret missing in some rows only, a truncated line) is an error naming the file
and exits 1 without writing --out (written under a temporary name and renamed). With one run
no claim is resolved (there is no standard error; "comparable" included).

Pooling over splits (--splits): the landmine runs of one results directory share one
train/validation split per field, i.e. six or 29 fixed landscapes, and the standard error over
runs cannot see how much a claim depends on them. --splits names further result roots with the
same curve names, each run on another split (objective.split: seeded with objective.split_seed
k; tools/reproduce.sh --landmine-study writes them); every claim whose curves exist in --results
and in each of them is also checked pooled: runs are nested in splits, and the S splits' paired
mean differences y_i, each with its within-split variance v_i (its standard error squared over
its own runs; the pooled within-split variance over n_i when a split's runs all agree), are
pooled by DerSimonian-Laird random effects: tau^2 = max(0, (Q - (S - 1)) / c) from Cochran's Q
of the inverse-variance weights, then weights 1 / (v_i + tau^2), estimate sum w y / sum w and
standard error sqrt(1 / sum w). That standard error cannot fall below what the within-split
noise allows (before 2026-12-02 it was the standard deviation of the S means over sqrt(S), which
five close split means can make several times smaller). Verdicts compare with t(0.975, S - 1)
standard errors ("better") or run the TOST at t(0.95, S - 1) ("comparable"). The table also
gives tau, the pooled within-split standard deviation, the split means' own standard error and
the naive standard error that treats all runs as independent.
"""
import argparse
import csv
import glob
import io
import math
import os
import sys

try:
    import pandas as pd
    import yaml  # noqa: F401
except ImportError as missing:
    debian = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(debian) and os.access(debian, os.X_OK):
        os.execv(debian, [debian] + sys.argv)
    sys.exit(f"claims: {missing}; install Debian's python3-pandas and python3-yaml")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fbosim_results import (ResultError, Table, inside, read_config,  # noqa: E402
                            read_text, read_yaml, write_text)
import claims_table  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = """# Fidelity: the papers' claims, checked with power

Written by `tools/claims.py --results {results}` (tools/reproduce.sh runs it after the
experiments; at full scale it rewrites docs/FIDELITY.md). Each row is one comparison a paper's
text makes (docs/claims/*.yaml quotes it): the per-run utility of both curves averaged over the
iterations shown, their paired difference run by run (the same run index sees the same
functions and initial points), its standard error over runs, and the verdict: a "better" claim
holds when the difference exceeds 2 standard errors in the claimed direction and is
contradicted when it exceeds 2 the other way; a "comparable" claim holds when two one-sided
tests show the difference inside its equivalence margin (the 90 % interval, t(0.95, runs - 1)
s.e., inside +- the margin shown), is contradicted when the interval lies wholly beyond the
margin, and is not resolved otherwise. Utility: simple regret (synthetic), best error
1 - score (real data).
What drives the contradicted claims, with the alternatives tried: docs/CLAIMS.md.

"""
TARGET_FAMILY = ("fts_target", "rgpe", "taf")


def read_trace(directory):
    """trace.csv's run, agent, round, best_f and regret as floats, checked (fbosim_results):
    best_f a number in every row, regret in every row or in none (optimum unknown)."""
    t = Table(os.path.join(directory, "trace.csv"), ("run", "agent", "round", "best_f", "regret"))
    return pd.DataFrame({"run": t.number("run", lo=0, integer=True),
                         "agent": t.number("agent", lo=0, integer=True),
                         "round": t.number("round", lo=0, integer=True),
                         "best_f": t.number("best_f"),
                         "regret": t.number("regret", empty="all-or-none")})


def per_run(directory, metric, rounds):
    """{run: mean over rounds r0..r1 of the run's utility (mean over its measured agents)}."""
    config_path = os.path.join(directory, "config.resolved.yaml")
    cfg = read_config(config_path)
    trace = read_trace(directory)
    if cfg.get("algorithm") in TARGET_FAMILY:
        k = cfg.get("target.agents", 1)
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ResultError(f"{config_path}: target.agents must be an integer >= 1, got {k!r}")
        trace = trace[trace["agent"] == trace["run"] % k]
    if metric == "auto":
        metric = "regret" if trace["regret"].notna().all() else "error"
    elif metric == "regret" and trace["regret"].isna().any():
        raise ResultError(f"{os.path.join(directory, 'trace.csv')}: no regret (the optimum is "
                          "unknown), but the claim's metric is regret")
    last = trace.groupby(["run", "agent", "round"]).last().reset_index()
    value = last["regret"] if metric == "regret" else 1.0 - last["best_f"]
    last = last.assign(value=value)
    curve = last.groupby(["run", "round"])["value"].mean().reset_index()
    r0, r1 = rounds
    window = curve[(curve["round"] >= r0) & (curve["round"] <= r1)]
    if window.empty:
        return {}, metric, None
    return window.groupby("run")["value"].mean().to_dict(), metric, int(window["round"].max())


def equivalence(mean, se, df, margin):
    """Two one-sided tests (TOST, level 0.05 each) of |difference| < margin: holds when the
    90 % interval mean +- t(0.95, df) se lies inside (-margin, margin); contradicted when it lies
    wholly beyond one of them (the difference exceeds the margin); else not resolved."""
    k = t95(df)
    lo, hi = mean - k * se, mean + k * se
    if -margin < lo and hi < margin:
        return "holds"
    if lo > margin or hi < -margin:
        return "contradicted"
    return "not resolved"


def evaluate(claim, results, default_rounds, where="claim", margin=None):
    """The verdict of one claim (checked by check_claim); where names it in errors. A
    "comparable" claim needs its margin (resolve_margin); without one it is not resolved."""
    rounds = claim.get("rounds", default_rounds)
    metric = claim.get("metric", "auto")
    paths = [inside(results, claim[k], f"{where}: {k}") for k in ("better", "worse")]
    missing = [p for p in paths if not os.path.exists(os.path.join(p, "trace.csv"))]
    if missing:
        return {"verdict": "missing results", "missing": missing}
    better, metric, last = per_run(paths[0], metric, rounds)
    worse, _, _ = per_run(paths[1], metric, rounds)
    if last is None or not set(better) & set(worse):
        return {"verdict": "missing results", "missing": [f"iterations {rounds[0]}-{rounds[1]}"]}
    rounds = [rounds[0], min(rounds[1], last)]  # runs shorter than the window: what they have
    runs = sorted(set(better) & set(worse))
    d = [worse[r] - better[r] for r in runs]
    n = len(d)
    mean = sum(d) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n) if n > 1 else float("inf")
    if n < 2:  # no standard error from one run: nothing is resolved, "comparable" included
        verdict = "not resolved"
    elif claim.get("kind", "better") == "comparable":
        verdict = "not resolved" if margin is None else equivalence(mean, se, n - 1, margin)
    else:
        verdict = "holds" if mean > 2 * se else ("contradicted" if mean < -2 * se else "not resolved")
    return {"verdict": verdict, "runs": n, "diff": mean, "se": se, "metric": metric,
            "better": sum(better[r] for r in runs) / n, "worse": sum(worse[r] for r in runs) / n,
            "rounds": rounds, "d": d, "margin": margin}


# t(0.975, df) for df = 1..30 (two-sided 95 %); beyond 30 the normal's 1.96 is within 4 %.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t975(df):
    return T975[df - 1] if df <= len(T975) else 2.0


# t(0.95, df) for df = 1..30 (one-sided 95 %, the equivalence tests); beyond 30, 1.70 is above
# every t(0.95, df) (1.697 at 30, 1.645 in the limit).
T95 = [6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812, 1.796, 1.782,
       1.771, 1.761, 1.753, 1.746, 1.740, 1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711,
       1.708, 1.706, 1.703, 1.701, 1.699, 1.697]


def t95(df):
    return T95[df - 1] if df <= len(T95) else 1.70


MARGIN_FRACTION = 0.5


def resolve_margin(claim, spec, diff_of):
    """A "comparable" claim's equivalence margin, in the metric's units: `margin` as given, or
    `margin_fraction` (default 0.5) of the absolute difference that diff_of(claim) measures for
    the "better" claim `margin_from` of the same file (an effect the paper reports in the same
    or the sister figure); None when that claim has no result or does not hold."""
    if "margin" in claim:
        return float(claim["margin"])
    ref = next(c for c in spec["claims"] if c.get("id") == claim["margin_from"])
    r = diff_of(ref)
    # A reference effect that does not hold is not established: its measured difference is
    # then mostly noise (EMNIST's 0.0003 +- 0.0016 would make a margin of 0.00015, under which
    # any detected difference "contradicts"), so the margin is unknown.
    if r.get("diff") is None or r.get("verdict") != "holds":
        return None
    return claim.get("margin_fraction", MARGIN_FRACTION) * abs(r["diff"])


def dersimonian_laird(means, variances):
    """Random-effects pooling of per-split estimates (DerSimonian & Laird 1986): the
    between-split variance tau^2 by the method of moments, then weights 1 / (v_i + tau^2).
    Returns (estimate, its standard error, tau^2)."""
    k = len(means)
    w = [1.0 / v for v in variances]
    sw = sum(w)
    fixed = sum(wi * y for wi, y in zip(w, means)) / sw
    q = sum(wi * (y - fixed) ** 2 for wi, y in zip(w, means))
    c = sw - sum(wi * wi for wi in w) / sw
    tau2 = max(0.0, (q - (k - 1)) / c)
    ws = [1.0 / (v + tau2) for v in variances]
    est = sum(wi * y for wi, y in zip(ws, means)) / sum(ws)
    return est, math.sqrt(1.0 / sum(ws)), tau2


def pooled(claim, roots, default_rounds, margin=None):
    """The claim over several splits (one results root each): runs nested in splits, pooled by
    DerSimonian-Laird random effects with each split's own within-split variance."""
    per_split = [evaluate(claim, root, default_rounds) for root in roots]
    if any(r["verdict"] == "missing results" for r in per_split) or len(per_split) < 2:
        return {"verdict": "missing results"}
    means = [r["diff"] for r in per_split]
    s = len(means)
    mean_of_means = sum(means) / s
    means_se = math.sqrt(sum((m - mean_of_means) ** 2 for m in means) / (s - 1) / s)
    # Pooled within-split variance of the per-run differences (for scale, and for a split whose
    # own runs all agree: a zero variance would give it all the weight).
    within_ss = sum(sum((x - r["diff"]) ** 2 for x in r["d"]) for r in per_split)
    within_df = sum(len(r["d"]) - 1 for r in per_split)
    within = within_ss / within_df if within_df > 0 else float("nan")
    own = [r["se"] ** 2 for r in per_split]
    if all(v > 0 and math.isfinite(v) for v in own):
        variances = own
    elif within > 0:
        variances = [within / len(r["d"]) for r in per_split]
    else:
        variances = None
    if variances is None:  # no within-split noise at all: the split means are exact
        mean, se, tau2 = mean_of_means, means_se, means_se ** 2 * s
    else:
        mean, se, tau2 = dersimonian_laird(means, variances)
    all_d = [x for r in per_split for x in r["d"]]
    n = len(all_d)
    grand = sum(all_d) / n
    naive = math.sqrt(sum((x - grand) ** 2 for x in all_d) / (n - 1) / n)
    k = t975(s - 1)
    if claim.get("kind", "better") == "comparable":
        k = t95(s - 1)  # the TOST's one-sided quantile
        verdict = "not resolved" if margin is None else equivalence(mean, se, s - 1, margin)
    else:
        verdict = "holds" if mean > k * se else ("contradicted" if mean < -k * se else "not resolved")
    return {"verdict": verdict, "splits": s, "runs": n, "diff": mean, "se": se, "t": k,
            "split_sd": math.sqrt(tau2), "run_sd": math.sqrt(within), "naive_se": naive,
            "means_se": means_se, "split_diffs": means, "rounds": per_split[0]["rounds"],
            "margin": margin}


def pooled_table(claim_files, roots):
    lines = ["### Pooled over splits", "",
             f"Result roots, one split each: {', '.join(f'`{r}`' for r in roots)}. Estimate "
             "and s.e.: DerSimonian-Laird random-effects pooling of the splits' paired mean "
             "differences, each weighted by 1 / (its within-split variance + tau^2), so the "
             "s.e. includes the run-to-run noise of every split; a \"better\" claim's verdict "
             "at t(0.975, S - 1) s.e., a \"comparable\" claim's by two one-sided tests at "
             "t(0.95, S - 1) against its margin. Split sd: tau, the between-split sd; run sd: "
             "the pooled within-split sd of the per-run difference; means s.e.: the sd of the S "
             "split means over sqrt(S) (the estimate before 2026-12-02, blind to the within-split "
             "noise); naive s.e.: all runs as if independent (ignores the splits).", "",
             "| claim | splits | runs | iterations | per-split differences | worse - better "
             "(+- s.e.) | t | split sd | run sd | means s.e. | naive s.e. | verdict |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    rows = 0
    for path in claim_files:
        spec = check_claims_file(path)
        rounds = spec.get("rounds", [1, 40])
        for c in spec["claims"]:
            margin = None
            if c.get("kind") == "comparable":
                margin = resolve_margin(c, spec, lambda ref: pooled(ref, roots, rounds))
            r = pooled(c, roots, rounds, margin)
            if r["verdict"] == "missing results":
                continue
            rows += 1
            per = ", ".join(f"{x:+.4f}" for x in r["split_diffs"])
            lines.append(f"| {c['figure']}: {c['text']}{kind_text(c, margin)} | {r['splits']} | "
                         f"{r['runs']} | {r['rounds'][0]}-{r['rounds'][1]} | {per} | "
                         f"{r['diff']:+.4f} +- {r['se']:.4f} | {r['t']:.2f} | "
                         f"{r['split_sd']:.4f} | {r['run_sd']:.4f} | {r['means_se']:.4f} | "
                         f"{r['naive_se']:.4f} | **{r['verdict']}** |")
    if not rows:
        lines.append("| (no claim has results in every root) | | | | | | | | | | | |")
    lines.append("")
    return "\n".join(lines)


def _rounds(value, where):
    if not (isinstance(value, list) and len(value) == 2 and
            all(isinstance(r, int) and not isinstance(r, bool) and r >= 0 for r in value) and
            value[0] <= value[1]):
        raise ResultError(f"{where}: rounds must be [FIRST, LAST] with 0 <= FIRST <= LAST, got "
                          f"{value!r}")
    return value


def _check_margin(c, claims, where):
    """A "comparable" claim states its equivalence margin: `margin` (> 0, metric units) or
    `margin_from` (the id of a "better" claim of the same file) with an optional
    `margin_fraction` in (0, 1]; a "better" claim has neither."""
    keys = {"margin", "margin_from", "margin_fraction"} & set(c)
    if c.get("kind", "better") != "comparable":
        if keys:
            raise ResultError(f"{where}: {', '.join(sorted(keys))} only for kind: comparable")
        return
    if ("margin" in c) == ("margin_from" in c):
        raise ResultError(f"{where}: a comparable claim needs exactly one of margin and "
                          "margin_from (its equivalence margin)")
    if "margin" in c:
        m = c["margin"]
        if isinstance(m, bool) or not isinstance(m, (int, float)) or not m > 0 or \
                not math.isfinite(m):
            raise ResultError(f"{where}: margin must be a number > 0, got {m!r}")
        if "margin_fraction" in c:
            raise ResultError(f"{where}: margin_fraction only with margin_from")
        return
    ref = [x for x in claims if isinstance(x, dict) and x.get("id") == c["margin_from"]]
    if len(ref) != 1 or ref[0].get("kind", "better") != "better":
        raise ResultError(f"{where}: margin_from must name the id of one \"better\" claim of "
                          f"the file, got {c['margin_from']!r}")
    f = c.get("margin_fraction", MARGIN_FRACTION)
    if isinstance(f, bool) or not isinstance(f, (int, float)) or not 0 < f <= 1:
        raise ResultError(f"{where}: margin_fraction must be in (0, 1], got {f!r}")


def kind_text(c, margin):
    if c.get("kind") != "comparable":
        return ""
    return " (comparable, margin " + ("unknown" if margin is None else f"{margin:.4f}") + ")"


def check_claims_file(path):
    """The claims file, its structure checked: paper, optional rounds, and claims, each with
    figure, text, better, worse (result names), and optional kind, metric and rounds."""
    spec = read_yaml(path)
    for key in ("paper", "claims"):
        if key not in spec:
            raise ResultError(f"{path}: no key '{key}'")
    if not isinstance(spec["paper"], str):
        raise ResultError(f"{path}: paper must be a text, got {spec['paper']!r}")
    unknown = set(spec) - {"paper", "rounds", "claims"}
    if unknown:
        raise ResultError(f"{path}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
    _rounds(spec.get("rounds", [1, 40]), f"{path}: rounds")
    if not isinstance(spec["claims"], list) or not spec["claims"]:
        raise ResultError(f"{path}: claims must be a non-empty list, got {spec['claims']!r}")
    for i, c in enumerate(spec["claims"]):
        where = f"{path}: claims[{i}]"
        if not isinstance(c, dict):
            raise ResultError(f"{where}: must be a mapping, got {c!r}")
        for key in ("figure", "text", "better", "worse"):
            if not isinstance(c.get(key), str) or not c[key].strip():
                raise ResultError(f"{where}: {key} must be a non-empty text, got "
                                  f"{c.get(key)!r}")
        unknown = set(c) - {"id", "figure", "text", "better", "worse", "kind", "metric", "rounds",
                            "margin", "margin_from", "margin_fraction"}
        if unknown:
            raise ResultError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
        if c.get("kind", "better") not in ("better", "comparable"):
            raise ResultError(f"{where}: kind must be better or comparable, got {c['kind']!r}")
        _check_margin(c, spec["claims"], where)
        if c.get("metric", "auto") not in ("auto", "regret", "error"):
            raise ResultError(f"{where}: metric must be auto, regret or error, got "
                              f"{c['metric']!r}")
        if "rounds" in c:
            _rounds(c["rounds"], f"{where}: rounds")
    return spec


def table(claim_files, results):
    lines = []
    for path in claim_files:
        spec = check_claims_file(path)
        lines += [f"### {spec['paper']}", "",
                  "| claim | runs | iterations | better | worse | worse - better (+- s.e.) | verdict |",
                  "|---|---|---|---|---|---|---|"]
        rounds = spec.get("rounds", [1, 40])
        for i, c in enumerate(spec["claims"]):
            where = f"{path}: claims[{i}]"
            margin = None
            if c.get("kind") == "comparable":
                margin = resolve_margin(c, spec, lambda ref: evaluate(ref, results, rounds, where))
            r = evaluate(c, results, rounds, where, margin)
            head = f"| {c['figure']}: {c['text']}{kind_text(c, margin)} "
            if r["verdict"] == "missing results":
                lines.append(head + "| | | | | | missing results |")
                continue
            lines.append(head + f"| {r['runs']} | {r['rounds'][0]}-{r['rounds'][1]} | "
                         f"`{c['better']}` {r['better']:.4f} | `{c['worse']}` {r['worse']:.4f} | "
                         f"{r['diff']:+.4f} +- {r['se']:.4f} | **{r['verdict']}** |")
        lines.append("")
    return "\n".join(lines)


def self_test():
    """Two fake curves with known per-run regrets: the differences, standard errors and
    verdicts must be the hand-computed ones."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        def write(name, values):  # values[run][round] = regret of each of 2 agents
            d = os.path.join(root, name)
            os.makedirs(d)
            with open(os.path.join(d, "config.resolved.yaml"), "w", encoding="utf-8") as fh:
                fh.write("algorithm: fts_de\n")
            with open(os.path.join(d, "trace.csv"), "w", encoding="utf-8") as fh:
                fh.write("run,agent,round,x0,y,f,best_f,regret,source\n")
                for run, per_round in enumerate(values):
                    for t, v in enumerate(per_round):
                        for agent, dv in enumerate((-0.01, 0.01)):  # agents average to v
                            fh.write(f"{run},{agent},{t},0.5,0,0,{1 - v - dv},{v + dv},local\n")
        write("a", [[0.9, 0.2, 0.1], [0.9, 0.3, 0.1], [0.9, 0.2, 0.2]])
        write("b", [[0.9, 0.4, 0.2], [0.9, 0.4, 0.3], [0.9, 0.5, 0.3]])
        r = evaluate({"better": "a", "worse": "b"}, root, [1, 2])
        # per run means over rounds 1-2: a 0.15, 0.2, 0.2; b 0.3, 0.35, 0.4 -> d 0.15, 0.15, 0.2
        d = [0.15, 0.15, 0.2]
        mean = sum(d) / 3
        se = math.sqrt(sum((x - mean) ** 2 for x in d) / 2 / 3)
        ok = abs(r["diff"] - mean) < 1e-12 and abs(r["se"] - se) < 1e-12 and r["verdict"] == "holds"
        ok = ok and evaluate({"better": "b", "worse": "a"}, root, [1, 2])["verdict"] == "contradicted"
        # Comparable: d's 90 % interval is 1/6 +- t(0.95, 2) 0.0167 = [0.118, 0.215]: beyond a
        # margin of 0.05 (contradicted), inside 0.3 (holds), straddling 0.2 (not resolved); no
        # margin, no verdict; identical curves are equivalent under any margin.
        comparable = {"better": "a", "worse": "b", "kind": "comparable"}
        ok = ok and evaluate(comparable, root, [1, 2], margin=0.05)["verdict"] == "contradicted"
        ok = ok and evaluate(comparable, root, [1, 2], margin=0.3)["verdict"] == "holds"
        ok = ok and evaluate(comparable, root, [1, 2], margin=0.2)["verdict"] == "not resolved"
        ok = ok and evaluate(comparable, root, [1, 2])["verdict"] == "not resolved"
        ok = ok and evaluate({"better": "a", "worse": "a", "kind": "comparable"}, root,
                             [1, 2], margin=1e-6)["verdict"] == "holds"
        ok = ok and evaluate({"better": "a", "worse": "zz"}, root, [1, 2])["verdict"] == "missing results"
        ok = ok and evaluate({"better": "a", "worse": "b"}, root, [5, 9])["verdict"] == "missing results"
        # One run: no standard error, so no verdict (a "comparable" claim must not "hold").
        write("one_a", [[0.9, 0.2, 0.1]])
        write("one_b", [[0.9, 0.2, 0.1]])
        ok = ok and evaluate({"better": "one_a", "worse": "one_b", "kind": "comparable"}, root,
                             [1, 2], margin=1.0)["verdict"] == "not resolved"
        ok = ok and equivalence_self_test(root, write)
        ok = ok and pooled_self_test(root, write)
        ok = ok and dersimonian_laird_self_test(root, write)
        ok = ok and stats_self_test(root)
    print("claims self-test: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


def equivalence_self_test(root, write):
    """TOST on d = 0.01, 0.02, 0, 0.01 (mean 0.01, s.e. sqrt(0.0002 / 3) / 2 = 0.004082, 90 %
    interval 0.01 +- 2.353 x 0.004082 = [0.000394, 0.019606], hand-computed), the t tables and
    the verdicts against scipy.stats where it is installed, and margins taken from a claim."""
    import tempfile
    ok = True
    d = [0.01, 0.02, 0.0, 0.01]
    write("eq_base", [[0.9, 0.5] for _ in d])
    write("eq_alt", [[0.9, 0.5 + x] for x in d])
    claim = {"better": "eq_base", "worse": "eq_alt", "kind": "comparable"}
    r = evaluate(claim, root, [1, 1], margin=0.03)
    ok = ok and abs(r["diff"] - 0.01) < 1e-12 and abs(r["se"] - 0.0040824829) < 1e-9
    want = {0.03: "holds", 0.015: "not resolved", 0.0003: "contradicted"}
    for m, verdict in want.items():
        ok = ok and evaluate(claim, root, [1, 1], margin=m)["verdict"] == verdict
    ok = ok and equivalence(0.01, 0.0040824829, 3, 0.0197) == "holds"  # 0.019606 < 0.0197
    ok = ok and equivalence(0.01, 0.0040824829, 3, 0.0195) == "not resolved"
    ok = ok and equivalence(-0.01, 0.0040824829, 3, 0.0003) == "contradicted"
    try:
        from scipy import stats
    except ImportError:
        stats = None
    if stats is not None:
        ok = ok and all(abs(T95[k - 1] - stats.t.ppf(0.95, k)) < 6e-4 for k in range(1, 31))
        ok = ok and all(abs(T975[k - 1] - stats.t.ppf(0.975, k)) < 6e-4 for k in range(1, 31))
        ok = ok and all(stats.t.ppf(0.95, k) < 1.70 for k in range(31, 400))
        for m, verdict in want.items():  # TOST as two scipy one-sample t-tests at 5 %
            lower = stats.ttest_1samp(d, -m, alternative="greater").pvalue < 0.05
            upper = stats.ttest_1samp(d, m, alternative="less").pvalue < 0.05
            beyond = (stats.ttest_1samp(d, m, alternative="greater").pvalue < 0.05 or
                      stats.ttest_1samp(d, -m, alternative="less").pvalue < 0.05)
            ok = ok and verdict == ("holds" if lower and upper else
                                    "contradicted" if beyond else "not resolved")
    # margin_from: half the measured difference of the named "better" claim (a vs b: 1/6).
    spec = {"paper": "p", "claims": [
        {"id": "ab", "figure": "f", "text": "t", "better": "a", "worse": "b"},
        {"id": "eq", "figure": "f", "text": "t", "better": "eq_base", "worse": "eq_alt",
         "kind": "comparable", "margin_from": "ab"}]}
    m = resolve_margin(spec["claims"][1], spec, lambda c: evaluate(c, root, [1, 2]))
    ok = ok and abs(m - 0.5 / 6) < 1e-12
    spec["claims"][1]["margin_fraction"] = 0.1
    m = resolve_margin(spec["claims"][1], spec, lambda c: evaluate(c, root, [1, 2]))
    ok = ok and abs(m - 0.1 / 6) < 1e-12
    # A reference that does not hold sets no margin: contradicted (b is worse than a, the
    # claim says better), or not resolved (one run: no standard error). Its |diff| would be
    # 1/6 all the same.
    spec["claims"][0].update(better="b", worse="a")
    ok = ok and resolve_margin(spec["claims"][1], spec,
                               lambda c: evaluate(c, root, [1, 2])) is None
    spec["claims"][0].update(better="one_a", worse="one_b")
    ok = ok and resolve_margin(spec["claims"][1], spec,
                               lambda c: evaluate(c, root, [1, 2])) is None
    spec["claims"][0].update(better="a", worse="b")
    # A claims file whose comparable claim states no margin, or names a missing claim, is refused.
    with tempfile.TemporaryDirectory() as tmp:
        bad = [dict(spec["claims"][1], margin_from="nope"),
               {k: v for k, v in spec["claims"][1].items() if k not in ("margin_from", "margin_fraction")},
               dict(spec["claims"][1], margin=0.1),
               dict(spec["claims"][0], margin=0.1)]
        for i, c in enumerate(bad):
            path = os.path.join(tmp, f"bad{i}.yaml")
            with open(path, "w", encoding="utf-8") as fh:
                yaml.safe_dump({"paper": "p", "claims": [spec["claims"][0], c]}, fh)
            try:
                check_claims_file(path)
                ok = False
            except ResultError:
                pass
    return ok


def stats_self_test(root):
    """The verdicts CSV round trip: rows written by --stats-out from the fake curves, read
    back and judged by claims_table, give the verdicts and margins evaluate() and
    resolve_margin() give on the results themselves (a better claim that holds, one that is
    contradicted, a comparable claim with its margin from the first, and one whose reference
    is contradicted: margin unknown)."""
    spec = {"paper": "p", "rounds": [1, 2], "claims": [
        {"id": "ab", "figure": "f", "text": "t", "better": "a", "worse": "b"},
        {"id": "ba", "figure": "f", "text": "t", "better": "b", "worse": "a"},
        {"id": "eq", "figure": "f", "text": "t", "better": "eq_base", "worse": "eq_alt",
         "kind": "comparable", "margin_from": "ab", "rounds": [1, 1]},
        {"id": "eq2", "figure": "f", "text": "t", "better": "eq_base", "worse": "eq_alt",
         "kind": "comparable", "margin_from": "ba", "rounds": [1, 1]}]}
    path = os.path.join(root, "claims_rt.yaml")
    with open(path, "w", encoding="utf-8") as fh:
        yaml.safe_dump(spec, fh)
    csv_path = os.path.join(root, "verdicts.csv")
    write_stats(csv_path, stats_rows([path], root, "s"), {"s"})
    claims = claims_table.claims_by_id([path], check_claims_file)
    rows = claims_table.with_verdicts(claims_table.read_stats(csv_path, claims, {"s": {}}),
                                      claims, (t975, equivalence, MARGIN_FRACTION))
    got = {r["id"]: (r["verdict"], r["margin"]) for r in rows}
    want = {}
    for c in spec["claims"]:
        rounds = c.get("rounds", spec["rounds"])
        margin = None
        if c.get("kind") == "comparable":
            margin = resolve_margin(c, spec, lambda ref: evaluate(ref, root, spec["rounds"]))
        want[c["id"]] = (evaluate(c, root, rounds, margin=margin)["verdict"], margin)
    ok = got == want and want["ab"][0] == "holds" and want["ba"][0] == "contradicted"
    ok = ok and want["eq"][1] is not None and want["eq2"] == ("not resolved", None)
    ok = ok and claims_table.count(rows, "s", "ab+ba", "resolved") == 2
    ok = ok and claims_table.count(rows, "s", "eq*", "holds") == (want["eq"][0] == "holds")
    return ok


def dersimonian_laird_self_test(root, write):
    """Three splits with unequal run counts and variances: y = 0.2, 0.1, 0.4, v = 1/600, 1/300,
    1/200; by hand (exact fractions): fixed-effect mean 23/110, Q = 120/11, c = 7200/11,
    tau^2 = 49/3600 (tau = 7/60), estimate 25279/111270 = 0.227186, s.e. sqrt(44957/8011440) =
    0.074911, against the split means' own s.e. 0.088192."""
    diffs = {"u1": [0.1, 0.3, 0.2, 0.2], "u2": [0.0, 0.1, 0.2], "u3": [0.5, 0.3, 0.4, 0.6, 0.2]}
    for split, d in diffs.items():
        write(os.path.join(split, "good"), [[0.9, 0.5] for _ in d])
        write(os.path.join(split, "bad"), [[0.9, 0.5 + x] for x in d])
    est, se, tau2 = dersimonian_laird([0.2, 0.1, 0.4], [1 / 600, 1 / 300, 1 / 200])
    ok = (abs(est - 25279 / 111270) < 1e-12 and abs(se - math.sqrt(44957 / 8011440)) < 1e-12
          and abs(tau2 - 49 / 3600) < 1e-12)
    roots = [os.path.join(root, s) for s in diffs]
    r = pooled({"better": "good", "worse": "bad"}, roots, [1, 1])
    ok = ok and abs(r["diff"] - 25279 / 111270) < 1e-9 and abs(r["se"] - 0.0749106161) < 1e-9
    ok = ok and abs(r["split_sd"] - 7 / 60) < 1e-9 and abs(r["means_se"] - 0.0881917104) < 1e-9
    # 0.227 / 0.0749 = 3.03 s.e. < t(0.975, 2) = 4.30: not resolved.
    ok = ok and r["verdict"] == "not resolved"
    # With no between-split variance (Q <= k - 1) the pooling is the inverse-variance mean and
    # its s.e. is sqrt(1 / sum w): splits 0.1 +- 0.1 / sqrt(n) with the same noise.
    est, se, tau2 = dersimonian_laird([0.1, 0.11, 0.09], [0.01, 0.01, 0.01])
    ok = ok and tau2 == 0.0 and abs(est - 0.1) < 1e-12 and abs(se - math.sqrt(0.01 / 3)) < 1e-12
    return ok


def pooled_self_test(root, write):
    """Three splits whose per-run differences are fixed by construction; the pooled estimate,
    its standard error and the variance components against a computation that shares no code
    with pooled() (pandas group means, numpy-free sums written out), and the verdicts. Split s3's
    runs agree exactly, so each split's variance is the pooled within-split one over its 3 runs:
    with equal variances DerSimonian-Laird's tau^2 is the one-way ANOVA's between-split
    component and its s.e. that of the split means (both checked here)."""
    # d per split (worse - better at round 1, one round): s1 .1 .2 .3, s2 0 0 .3, s3 .3 .3 .3
    diffs = {"s1": [0.1, 0.2, 0.3], "s2": [0.0, 0.0, 0.3], "s3": [0.3, 0.3, 0.3]}
    for split, d in diffs.items():
        write(os.path.join(split, "good"), [[0.9, 0.5] for _ in d])
        write(os.path.join(split, "bad"), [[0.9, 0.5 + x] for x in d])
    roots = [os.path.join(root, s) for s in diffs]
    r = pooled({"better": "good", "worse": "bad"}, roots, [1, 1])
    frame = pd.DataFrame([(s, x) for s, d in diffs.items() for x in d], columns=["split", "d"])
    means = frame.groupby("split")["d"].mean()
    want_mean = means.mean()  # 0.2
    want_se = means.std(ddof=1) / len(means) ** 0.5  # sqrt(0.01 / 3) = 0.0577
    within = frame.groupby("split")["d"].var(ddof=1).mean()  # equal sizes: the pooled variance
    between = max(0.0, means.var(ddof=1) - within / 3)
    naive = frame["d"].std(ddof=1) / len(frame) ** 0.5
    ok = (abs(r["diff"] - want_mean) < 1e-12 and abs(want_mean - 0.2) < 1e-12
          and abs(r["se"] - want_se) < 1e-12 and abs(want_se - math.sqrt(0.01 / 3)) < 1e-12
          and abs(r["run_sd"] ** 2 - within) < 1e-12 and abs(r["split_sd"] ** 2 - between) < 1e-12
          and abs(r["naive_se"] - naive) < 1e-12 and r["splits"] == 3 and r["runs"] == 9)
    # 0.2 / 0.0577 = 3.46 standard errors: below t(0.975, 2) = 4.30, so not resolved, though
    # the naive standard error (all 9 runs as independent) would call it clearly.
    ok = ok and r["verdict"] == "not resolved" and r["diff"] > 4.3 * r["naive_se"]
    ok = ok and pooled({"better": "bad", "worse": "good"}, roots, [1, 1])["verdict"] == "not resolved"
    ok = ok and pooled({"better": "good", "worse": "good", "kind": "comparable"}, roots,
                       [1, 1], margin=1e-6)["verdict"] == "holds"
    ok = ok and pooled({"better": "good", "worse": "good", "kind": "comparable"}, roots,
                       [1, 1])["verdict"] == "not resolved"  # no margin
    ok = ok and pooled({"better": "good", "worse": "bad"}, roots[:1], [1, 1])["verdict"] == \
        "missing results"
    ok = ok and pooled({"better": "good", "worse": "nope"}, roots, [1, 1])["verdict"] == \
        "missing results"
    # A consistent advantage across splits holds.
    for split in ("t1", "t2", "t3"):
        write(os.path.join(split, "good"), [[0.9, 0.5]] * 3)
        write(os.path.join(split, "bad"), [[0.9, 0.6 + k * 0.001] for k in range(3)])
    held = pooled({"better": "good", "worse": "bad"}, [os.path.join(root, s) for s in
                                                        ("t1", "t2", "t3")], [1, 1])
    return ok and held["verdict"] == "holds" and abs(held["diff"] - 0.101) < 1e-12


def stats_rows(claim_files, results, study, roots=None):
    """The verdicts CSV's rows (claims_table.COLUMNS) of every claim with results: per run
    from `results`, or pooled over `roots` (one split each) when given."""
    rows = []
    for path in claim_files:
        spec = check_claims_file(path)
        rounds = spec.get("rounds", [1, 40])
        for c in spec["claims"]:
            if roots:
                r = pooled(c, roots, rounds)
            else:
                r = evaluate(c, results, rounds, path)
            if r["verdict"] == "missing results":
                continue
            detail = ""
            if roots:
                detail = "per split " + ", ".join(f"{x:+.4f}" for x in r["split_diffs"]) + \
                    f"; tau {r['split_sd']:.4f}; run sd {r['run_sd']:.4f}"
            rows.append({"study": study, "id": c["id"], "runs": r["runs"],
                         "splits": r["splits"] if roots else "",
                         "first": r["rounds"][0], "last": r["rounds"][1],
                         "better_mean": "" if roots else repr(r["better"]),
                         "worse_mean": "" if roots else repr(r["worse"]),
                         "diff": repr(r["diff"]), "se": repr(r["se"]), "detail": detail})
    return rows


def write_stats(path, rows, studies):
    """Replace the rows of `studies` (a set) in the verdicts CSV at path (created if missing)
    by rows, the other studies' rows kept in their order; written atomically."""
    keep = []
    if os.path.exists(path):
        text = read_text(path)
        reader = csv.DictReader(io.StringIO(text))
        if reader.fieldnames != claims_table.COLUMNS:
            raise ResultError(f"{path}: header must be {','.join(claims_table.COLUMNS)}")
        keep = [r for r in reader if r["study"] not in studies]
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=claims_table.COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in keep + rows:
        w.writerow(r)
    write_text(path, out.getvalue())


def load_table(stats, studies_path, claim_files):
    """The verdicts CSV's rows with their claims' verdicts (claims_table.with_verdicts), and
    the studies in their order."""
    studies = read_yaml(studies_path).get("studies")
    if not isinstance(studies, dict) or not all(
            isinstance(v, dict) and {"title", "text"} <= set(v) for v in studies.values()):
        raise ResultError(f"{studies_path}: studies must map each study to its title and text")
    claims = claims_table.claims_by_id(claim_files, check_claims_file)
    rows = claims_table.read_stats(stats, claims, studies)
    return claims_table.with_verdicts(rows, claims, (t975, equivalence, MARGIN_FRACTION)), studies


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", default="results")
    p.add_argument("--claims", nargs="+",
                   default=sorted(glob.glob(os.path.join(ROOT, "docs", "claims", "*.yaml"))))
    p.add_argument("--splits", nargs="+", default=[],
                   help="further result roots, one split each, to pool with --results")
    p.add_argument("--out", help="write the Markdown table to this file")
    p.add_argument("--study", help="with --stats-out: the study the results are (a key of "
                   "docs/verdicts/studies.yaml)")
    p.add_argument("--stats-out", help="write the claims' measured differences as STUDY's rows "
                   "of this verdicts CSV (and, with --splits, the pooled ones as STUDY_pooled)")
    p.add_argument("--from-stats", metavar="CSV", help="render docs/FIDELITY.md (--out) from a "
                   "verdicts CSV instead of from results")
    p.add_argument("--check-docs", nargs="+", metavar="DOC", help="check every count of claims "
                   "the docs quote against --from-stats (exit 1 naming each problem)")
    p.add_argument("--studies", default=os.path.join(ROOT, "docs", "verdicts", "studies.yaml"))
    p.add_argument("--self-test", action="store_true")
    a = p.parse_args()
    if a.self_test:
        sys.exit(self_test())
    if not a.claims:
        sys.exit(f"claims: no claims file (none in {os.path.join(ROOT, 'docs', 'claims')}; "
                 "give --claims FILE)")
    if a.from_stats:
        try:
            rows, studies = load_table(a.from_stats, a.studies, a.claims)
            if a.check_docs:
                problems = claims_table.check_docs(a.check_docs, rows, studies)
                for line in problems:
                    print(f"claims: {line}", file=sys.stderr)
                if problems:
                    sys.exit(1)
                print(f"claims: {len(a.check_docs)} docs agree with {a.from_stats}")
                return
            text = claims_table.render(rows, studies, os.path.relpath(a.from_stats, ROOT))
            if a.out:
                write_text(a.out, text)
                print(f"claims: wrote {a.out}")
            else:
                print(text, end="")
        except ResultError as e:
            sys.exit(f"claims: {e}")
        return
    if not os.path.isdir(a.results):
        sys.exit(f"claims: --results {a.results}: no such directory")
    if a.stats_out and not a.study:
        sys.exit("claims: --stats-out needs --study NAME")
    try:
        text = table(a.claims, a.results)
        if a.splits:
            text += "\n" + pooled_table(a.claims, [a.results] + a.splits)
        if a.stats_out:  # per run as STUDY; pooled over --splits as STUDY_pooled
            rows = stats_rows(a.claims, a.results, a.study)
            studies = {a.study}
            if a.splits:
                pooled_study = a.study + "_pooled"
                rows += stats_rows(a.claims, a.results, pooled_study, [a.results] + a.splits)
                studies.add(pooled_study)
            write_stats(a.stats_out, rows, studies)
        if a.out:
            write_text(a.out, HEADER.format(results=a.results) + text + "\n")
    except ResultError as e:
        sys.exit(f"claims: {e}")
    if a.out:
        print(f"claims: wrote {a.out}")
    elif not a.stats_out:
        print(text)


if __name__ == "__main__":
    main()
