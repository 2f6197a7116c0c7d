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

    tools/claims.py [--results DIR] [--claims FILE ...] [--out FILE.md]
    tools/claims.py --self-test

Without --out the table goes to stdout. Claims whose results are missing are listed as such.
"""
import argparse
import glob
import math
import os
import sys

try:
    import pandas as pd
    import yaml
except ImportError as missing:
    debian = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(debian) and os.access(debian, os.X_OK):
        os.execv(debian, [debian] + sys.argv)
    sys.exit(f"claims: {missing}; install Debian's python3-pandas and python3-yaml")

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


def resolved(directory):
    with open(os.path.join(directory, "config.resolved.yaml"), encoding="utf-8") as fh:
        return yaml.safe_load(fh) or {}


def per_run(directory, metric, rounds):
    """{run: mean over rounds r0..r1 of the run's utility (mean over its measured agents)}."""
    cfg = resolved(directory)
    trace = pd.read_csv(os.path.join(directory, "trace.csv"))
    if cfg.get("algorithm") in TARGET_FAMILY:
        k = int((cfg.get("target") or {}).get("agents", 1))
        trace = trace[trace["agent"] == trace["run"] % k]
    if metric == "auto":
        metric = "regret" if trace["regret"].notna().all() else "error"
    last = trace.groupby(["run", "agent", "round"]).last().reset_index()
    value = last["regret"] if metric == "regret" else 1.0 - last["best_f"]
    last = last.assign(value=value)
    curve = last.groupby(["run", "round"])["value"].mean().reset_index()
    r0, r1 = rounds
    window = curve[(curve["round"] >= r0) & (curve["round"] <= r1)]
    if window.empty:
        return {}, metric, None
    return window.groupby("run")["value"].mean().to_dict(), metric, int(window["round"].max())


def evaluate(claim, results, default_rounds):
    rounds = claim.get("rounds", default_rounds)
    metric = claim.get("metric", "auto")
    paths = [os.path.join(results, claim[k]) for k in ("better", "worse")]
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
    if claim.get("kind", "better") == "comparable":
        verdict = "holds" if abs(mean) <= 2 * se else "contradicted"
    else:
        verdict = "holds" if mean > 2 * se else ("contradicted" if mean < -2 * se else "not resolved")
    return {"verdict": verdict, "runs": n, "diff": mean, "se": se, "metric": metric,
            "better": sum(better[r] for r in runs) / n, "worse": sum(worse[r] for r in runs) / n,
            "rounds": rounds}


def table(claim_files, results):
    lines = []
    for path in claim_files:
        with open(path, encoding="utf-8") as fh:
            spec = yaml.safe_load(fh)
        lines += [f"### {spec['paper']}", "",
                  "| claim | runs | iterations | better | worse | worse - better (+- s.e.) | verdict |",
                  "|---|---|---|---|---|---|---|"]
        for c in spec["claims"]:
            r = evaluate(c, results, spec.get("rounds", [1, 40]))
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
    print("claims self-test: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", default="results")
    p.add_argument("--claims", nargs="+",
                   default=sorted(glob.glob(os.path.join(ROOT, "docs", "claims", "*.yaml"))))
    p.add_argument("--out", help="write the Markdown table to this file")
    p.add_argument("--self-test", action="store_true")
    a = p.parse_args()
    if a.self_test:
        sys.exit(self_test())
    text = table(a.claims, a.results)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            fh.write(HEADER.format(results=a.results) + text + "\n")
        print(f"claims: wrote {a.out}")
    else:
        print(text)


if __name__ == "__main__":
    main()
