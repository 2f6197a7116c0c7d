#!/usr/bin/python3
"""Checks the papers' claims (docs/claims/*.yaml) on results, with power: for each claim, the
per-run utility of both curves averaged over the claim's iterations, their paired difference
run by run (the same run index sees the same functions and initial points: common random
numbers), its standard error over runs, and a verdict:
  better      holds if the difference exceeds 2 standard errors in the claimed direction,
              contradicted if it exceeds 2 standard errors the other way, else not resolved;
  comparable  holds if the difference is within 2 standard errors, else contradicted.
Utility: simple regret on the synthetic functions, best validation error 1 - best_f on real
data (per run: the mean over the measured agents: every agent, or the target of FTS's
target-agent runs).

    tools/claims.py [--results DIR] [--splits DIR ...] [--claims FILE ...] [--out FILE.md]
    tools/claims.py --self-test

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
and in each of them is also checked pooled: runs are nested in splits, the estimate is the mean
over the S splits of each split's paired mean difference, and its standard error is the
standard deviation of those S means over sqrt(S). That standard error contains the
split-to-split variance and the run-to-run noise in the proportions they have in the estimate,
needs no estimate of either alone (a variance-component estimate can come out negative) and
holds with unequal run counts; its cost is S - 1 degrees of freedom, so the verdict compares
the mean with t(0.975, S - 1) standard errors instead of 2. The table also gives, for scale,
the split-to-split and within-split standard deviations of a one-way random-effects
decomposition and the naive standard error that treats all runs as independent.
"""
import argparse
import glob
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
                            read_yaml, write_text)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = """# Fidelity: the papers' claims, checked with power

Written by `tools/claims.py --results {results}` (tools/reproduce.sh runs it after the
experiments; at full scale it rewrites docs/FIDELITY.md). Each row is one comparison a paper's
text makes (docs/claims/*.yaml quotes it): the per-run utility of both curves averaged over the
iterations shown, their paired difference run by run (the same run index sees the same
functions and initial points), its standard error over runs, and the verdict: a "better" claim
holds when the difference exceeds 2 standard errors in the claimed direction and is
contradicted when it exceeds 2 the other way; a "comparable" claim holds when the difference is
within 2 standard errors. Utility: simple regret (synthetic), best error 1 - score (real data).
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


def evaluate(claim, results, default_rounds, where="claim"):
    """The verdict of one claim (checked by check_claim); where names it in errors."""
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
        verdict = "holds" if abs(mean) <= 2 * se else "contradicted"
    else:
        verdict = "holds" if mean > 2 * se else ("contradicted" if mean < -2 * se else "not resolved")
    return {"verdict": verdict, "runs": n, "diff": mean, "se": se, "metric": metric,
            "better": sum(better[r] for r in runs) / n, "worse": sum(worse[r] for r in runs) / n,
            "rounds": rounds, "d": d}


# t(0.975, df) for df = 1..30 (two-sided 95 %); beyond 30 the normal's 1.96 is within 4 %.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t975(df):
    return T975[df - 1] if df <= len(T975) else 2.0


def pooled(claim, roots, default_rounds):
    """The claim over several splits (one results root each): runs nested in splits."""
    per_split = [evaluate(claim, root, default_rounds) for root in roots]
    if any(r["verdict"] == "missing results" for r in per_split) or len(per_split) < 2:
        return {"verdict": "missing results"}
    means = [r["diff"] for r in per_split]
    s = len(means)
    mean = sum(means) / s
    se = math.sqrt(sum((m - mean) ** 2 for m in means) / (s - 1) / s)
    # One-way random-effects decomposition, for scale: within-split variance of the per-run
    # differences (pooled), and the split-to-split variance left in the per-split means.
    within_ss = sum(sum((x - r["diff"]) ** 2 for x in r["d"]) for r in per_split)
    within_df = sum(len(r["d"]) - 1 for r in per_split)
    within = within_ss / within_df if within_df > 0 else float("nan")
    between = max(0.0, sum((m - mean) ** 2 for m in means) / (s - 1) -
                  sum(within / len(r["d"]) for r in per_split) / s)
    all_d = [x for r in per_split for x in r["d"]]
    n = len(all_d)
    grand = sum(all_d) / n
    naive = math.sqrt(sum((x - grand) ** 2 for x in all_d) / (n - 1) / n)
    k = t975(s - 1)
    if claim.get("kind", "better") == "comparable":
        verdict = "holds" if abs(mean) <= k * se else "contradicted"
    else:
        verdict = "holds" if mean > k * se else ("contradicted" if mean < -k * se else "not resolved")
    return {"verdict": verdict, "splits": s, "runs": n, "diff": mean, "se": se, "t": k,
            "split_sd": math.sqrt(between), "run_sd": math.sqrt(within), "naive_se": naive,
            "split_diffs": means, "rounds": per_split[0]["rounds"]}


def pooled_table(claim_files, roots):
    lines = ["### Pooled over splits", "",
             f"Result roots, one split each: {', '.join(f'`{r}`' for r in roots)}. Estimate: "
             "the mean over splits of each split's paired mean difference; s.e.: their standard "
             "deviation over sqrt(S) (runs nested in splits); verdict at t(0.975, S - 1) s.e. "
             "Split sd and run sd: the random-effects components of the per-run difference; "
             "naive s.e.: all runs as if independent (ignores the splits).", "",
             "| claim | splits | runs | iterations | per-split differences | worse - better "
             "(+- s.e.) | t | split sd | run sd | naive s.e. | verdict |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    rows = 0
    for path in claim_files:
        with open(path, encoding="utf-8") as fh:
            spec = yaml.safe_load(fh)
        for c in spec["claims"]:
            r = pooled(c, roots, spec.get("rounds", [1, 40]))
            if r["verdict"] == "missing results":
                continue
            rows += 1
            per = ", ".join(f"{x:+.4f}" for x in r["split_diffs"])
            lines.append(f"| {c['figure']}: {c['text']} | {r['splits']} | {r['runs']} | "
                         f"{r['rounds'][0]}-{r['rounds'][1]} | {per} | {r['diff']:+.4f} +- "
                         f"{r['se']:.4f} | {r['t']:.2f} | {r['split_sd']:.4f} | "
                         f"{r['run_sd']:.4f} | {r['naive_se']:.4f} | **{r['verdict']}** |")
    if not rows:
        lines.append("| (no claim has results in every root) | | | | | | | | | | |")
    lines.append("")
    return "\n".join(lines)


def _rounds(value, where):
    if not (isinstance(value, list) and len(value) == 2 and
            all(isinstance(r, int) and not isinstance(r, bool) and r >= 0 for r in value) and
            value[0] <= value[1]):
        raise ResultError(f"{where}: rounds must be [FIRST, LAST] with 0 <= FIRST <= LAST, got "
                          f"{value!r}")
    return value


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
        unknown = set(c) - {"id", "figure", "text", "better", "worse", "kind", "metric", "rounds"}
        if unknown:
            raise ResultError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
        if c.get("kind", "better") not in ("better", "comparable"):
            raise ResultError(f"{where}: kind must be better or comparable, got {c['kind']!r}")
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
        for i, c in enumerate(spec["claims"]):
            r = evaluate(c, results, spec.get("rounds", [1, 40]), f"{path}: claims[{i}]")
            kind = " (comparable)" if c.get("kind") == "comparable" else ""
            head = f"| {c['figure']}: {c['text']}{kind} "
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
        ok = ok and evaluate({"better": "a", "worse": "b", "kind": "comparable"}, root,
                             [1, 2])["verdict"] == "contradicted"
        ok = ok and evaluate({"better": "a", "worse": "a", "kind": "comparable"}, root,
                             [1, 2])["verdict"] == "holds"
        ok = ok and evaluate({"better": "a", "worse": "zz"}, root, [1, 2])["verdict"] == "missing results"
        ok = ok and evaluate({"better": "a", "worse": "b"}, root, [5, 9])["verdict"] == "missing results"
        # One run: no standard error, so no verdict (a "comparable" claim must not "hold").
        write("one_a", [[0.9, 0.2, 0.1]])
        write("one_b", [[0.9, 0.2, 0.1]])
        ok = ok and evaluate({"better": "one_a", "worse": "one_b", "kind": "comparable"}, root,
                             [1, 2])["verdict"] == "not resolved"
        ok = ok and pooled_self_test(root, write)
    print("claims self-test: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


def pooled_self_test(root, write):
    """Three splits whose per-run differences are fixed by construction; the pooled estimate,
    its standard error and the variance components against a computation that shares no code
    with pooled() (pandas group means, numpy-free sums written out), and the verdicts."""
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
                       [1, 1])["verdict"] == "holds"
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
    p.add_argument("--self-test", action="store_true")
    a = p.parse_args()
    if a.self_test:
        sys.exit(self_test())
    if not os.path.isdir(a.results):
        sys.exit(f"claims: --results {a.results}: no such directory")
    if not a.claims:
        sys.exit(f"claims: no claims file (none in {os.path.join(ROOT, 'docs', 'claims')}; "
                 "give --claims FILE)")
    try:
        text = table(a.claims, a.results)
        if a.splits:
            text += "\n" + pooled_table(a.claims, [a.results] + a.splits)
        if a.out:
            write_text(a.out, HEADER.format(results=a.results) + text + "\n")
    except ResultError as e:
        sys.exit(f"claims: {e}")
    if a.out:
        print(f"claims: wrote {a.out}")
    else:
        print(text)


if __name__ == "__main__":
    main()
