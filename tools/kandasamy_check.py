#!/usr/bin/python3
"""Kandasamy et al.'s check (AISTATS 2018, sec. 5: asynchronous parallel Thompson sampling
beats synchronous batches per unit of time), with fbosim: one agent running `ts` with M
workers, `schedule.batches` false (asyTS) against true (synTS), for each duration model, on
configs/async/kandasamy/hartmann6.yaml. Metric: the simple regret at simulated time T, per run
(the best regret among the evaluations completed by T, from trace.csv's `time` column). Runs
are paired by run index (the same seed: the same initial design and durations stream), and for
each (M, duration, T) the table gives the mean of async - sync over runs, its paired standard
error, and tools/claims.py's "better" verdict: holds (async better) if the mean is below
-2 s.e., contradicted if above +2 s.e., else not resolved (2 s.e. is the smallest difference
these runs can resolve, printed beside it).

    tools/kandasamy_check.py [--fbosim build/fbosim] [--runs 16] [--budgets 5,10]
                             [--workers 4,8,16] [--out DIR] [--analyse-only] [--table FILE.md]
    tools/kandasamy_check.py --self-test

Each run has enough evaluations (`rounds`) that the asynchronous one passes the largest T; a
run whose last completion comes before a budget T is an error (its regret at T would be
overstated), naming the directory. --out must not hold the runs already (a fresh directory per
study; --analyse-only reads one).
"""
import argparse
import csv
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = os.path.join(ROOT, "configs", "async", "kandasamy", "hartmann6.yaml")
# All of mean 1 (see docs/TIME.md, "Kandasamy et al.'s check").
DURATIONS = {
    "uniform": "{model: uniform, low: 0, high: 2}",
    "half_normal": "{model: half_normal, sigma: 1.2533141373155001}",  # sqrt(pi / 2)
    "exponential": "{model: exponential, mean: 1}",
    "pareto": "{model: pareto, shape: 3, scale: 0.6666666666666666}",
}


def regret_at(rows, budget):
    """Simple regret at time budget: the least regret among rows completed by it (None if none)."""
    done = [r for t, r in rows if t <= budget]
    return min(done) if done else None


def read_trace(path):
    """{run: [(time, regret)]} from a trace.csv."""
    runs = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            runs.setdefault(int(row["run"]), []).append((float(row["time"]), float(row["regret"])))
    return runs


def paired(a, b):
    """Mean of a - b over the common runs, its standard error, the runs, the verdict."""
    keys = sorted(set(a) & set(b))
    d = [a[k] - b[k] for k in keys]
    n = len(d)
    mean = sum(d) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n) if n > 1 else float("inf")
    if n < 2:
        verdict = "not resolved"
    else:  # claims.py's "better" rule, the claim being async < sync
        verdict = "holds" if mean < -2 * se else ("contradicted" if mean > 2 * se else "not resolved")
    return mean, se, n, verdict


def per_run_regret(trace, budget, where):
    out = {}
    for run, rows in trace.items():
        if max(t for t, _ in rows) < budget:
            sys.exit(f"kandasamy_check: {where}: run {run} ends before T = {budget}: raise rounds")
        r = regret_at(rows, budget)
        if r is None:
            sys.exit(f"kandasamy_check: {where}: run {run} has no evaluation by T = {budget}")
        out[run] = r
    return out


def rounds_for(workers, budget):
    # The asynchronous run completes about M T evaluations by T (mean duration 1); a quarter
    # more and 2 M cover the spread (checked: a run ending before T is an error). Not more:
    # the GP's refits cost about n^4 over a run.
    return int(1.25 * workers * budget + 2 * workers)


def run_all(args, budgets, workers):
    for m in workers:
        for dur, model in DURATIONS.items():
            for batches in ("false", "true"):
                out = os.path.join(args.out, f"M{m}_{dur}_{'sync' if batches == 'true' else 'async'}")
                cmd = ["nice", "-n", "10", args.fbosim, "run", args.config, "--threads", "1",
                       "--out", out, "--set", f"runs={args.runs}",
                       "--set", f"rounds={rounds_for(m, max(budgets))}",
                       "--set", f"schedule.workers={m}", "--set", f"schedule.batches={batches}",
                       "--set", f"timing.duration={model}"]
                if os.path.exists(out):  # a finished async run is not reused: a fresh directory
                    sys.exit(f"kandasamy_check: {out} exists: give another --out")
                print(" ".join(cmd), flush=True)
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def analyse(args, budgets, workers):
    lines = ["| M | durations | T | async regret | sync regret | async - sync | s.e. | 2 s.e. | runs | verdict |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for m in workers:
        for dur in DURATIONS:
            traces = {}
            for mode in ("async", "sync"):
                where = os.path.join(args.out, f"M{m}_{dur}_{mode}")
                traces[mode] = (read_trace(os.path.join(where, "trace.csv")), where)
            for budget in budgets:
                a = per_run_regret(traces["async"][0], budget, traces["async"][1])
                s = per_run_regret(traces["sync"][0], budget, traces["sync"][1])
                mean, se, n, verdict = paired(a, s)
                ma, ms = sum(a.values()) / len(a), sum(s.values()) / len(s)
                lines.append(f"| {m} | {dur} | {budget:g} | {ma:.4f} | {ms:.4f} | {mean:+.4f} | "
                             f"{se:.4f} | {2 * se:.4f} | {n} | {verdict} |")
    return "\n".join(lines) + "\n"


def self_test():
    # Hand-computed: rows (time, regret); regret at T = 2 is min(3, 1) = 1, at T = 0.5 none.
    rows = [(1.0, 3.0), (2.0, 1.0), (2.5, 0.5)]
    assert regret_at(rows, 2.0) == 1.0 and regret_at(rows, 0.5) is None and regret_at(rows, 9) == 0.5
    # d = a - b = (-1, -3, -2): mean -2, sd 1, se 1/sqrt(3) = 0.57735; -2 < -2 se: holds.
    mean, se, n, verdict = paired({0: 1.0, 1: 0.0, 2: 2.0}, {0: 2.0, 1: 3.0, 2: 4.0})
    assert n == 3 and abs(mean + 2) < 1e-12 and abs(se - 1 / math.sqrt(3)) < 1e-12, (mean, se)
    assert verdict == "holds", verdict
    # d = (1, 3, 2): contradicted; d = (1, -1, 0): mean 0, not resolved; one run: not resolved.
    assert paired({0: 2.0, 1: 3.0, 2: 4.0}, {0: 1.0, 1: 0.0, 2: 2.0})[3] == "contradicted"
    assert paired({0: 1.0, 1: 0.0, 2: 1.0}, {0: 0.0, 1: 1.0, 2: 1.0})[3] == "not resolved"
    assert paired({0: 1.0}, {0: 5.0})[3] == "not resolved"
    # Only runs present in both are paired: run 3 of a is left out.
    assert paired({0: 1.0, 1: 0.0, 2: 2.0, 3: 99.0}, {0: 2.0, 1: 3.0, 2: 4.0})[0] == -2
    assert rounds_for(4, 10) == 58
    print("kandasamy_check self-test: ok")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--fbosim", default=os.path.join(ROOT, "build", "fbosim"))
    p.add_argument("--config", default=CONFIG)
    p.add_argument("--runs", type=int, default=16)
    p.add_argument("--budgets", default="5,10")
    p.add_argument("--workers", default="4,8,16")
    p.add_argument("--out", default="results/kandasamy")
    p.add_argument("--analyse-only", action="store_true")
    p.add_argument("--table")
    p.add_argument("--self-test", action="store_true")
    args = p.parse_args()
    if args.self_test:
        return self_test()
    budgets = [float(b) for b in args.budgets.split(",")]
    workers = [int(w) for w in args.workers.split(",")]
    if not args.analyse_only:
        run_all(args, budgets, workers)
    table = analyse(args, budgets, workers)
    if args.table:
        with open(args.table, "w") as f:
            f.write(table)
    print(table, end="")


if __name__ == "__main__":
    main()
