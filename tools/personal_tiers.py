#!/usr/bin/python3
"""Per-tier results of a run with personal budgets in tiers (personal.tiers.*; docs/TRUST.md
"Personal privacy"): from a run directory's agents.csv (each agent's epsilon, `eligible` and
`tier` per round) and trace.csv (each agent's simple regret per round), writes

    DIR/tiers.csv   round,tier,agents,epsilon_median,epsilon_max,eligible_share,regret_mean,regret_se
    DIR/tiers.png   (unless --no-figure) two panels: the tiers' median epsilon and mean regret
                    against the round

    tools/personal_tiers.py DIR [--no-figure] [--out PNG]

regret_mean is the mean over runs of the tier's mean simple regret (best f so far below the
optimum, trace.csv's last row of each agent and round); regret_se its standard error over the
runs (the runs are independent; the agents of one run are not). epsilon_* are over the tier's
agents and runs at the round's snapshot (taken before that round's release). Uses Debian's
python3-matplotlib for the figure, nothing else beyond the standard library.
"""
import argparse
import csv
import math
import os
import statistics
import sys
from collections import defaultdict


def read_csv(path):
    if not os.path.isfile(path):
        sys.exit(f"personal_tiers: {path} is missing (a run with personal.tiers.* writes it)")
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--no-figure", action="store_true")
    ap.add_argument("--out", help="the figure's path (default DIR/tiers.png)")
    a = ap.parse_args()
    agents = read_csv(os.path.join(a.dir, "agents.csv"))
    if not agents or "tier" not in agents[0]:
        sys.exit(f"personal_tiers: {a.dir}/agents.csv has no tier column (no personal.tiers.*)")
    tier_of, eps, eligible = {}, defaultdict(list), defaultdict(list)
    for row in agents:
        run, agent, rnd, tier = int(row["run"]), int(row["agent"]), int(row["round"]), int(row["tier"])
        tier_of[(run, agent)] = tier
        eps[(rnd, tier)].append(float(row["epsilon"]))
        eligible[(rnd, tier)].append(int(row.get("eligible", "1")))
    # Simple regret per (run, agent, round): trace.csv's last row of that agent and round.
    regret = {}
    for row in read_csv(os.path.join(a.dir, "trace.csv")):
        regret[(int(row["run"]), int(row["agent"]), int(row["round"]))] = float(row["regret"])
    per_run = defaultdict(list)  # (round, tier, run) -> agents' regrets
    for (run, agent, rnd), value in regret.items():
        per_run[(rnd, tier_of[(run, agent)], run)].append(value)
    rounds = sorted({k[0] for k in eps})
    tiers = sorted({k[1] for k in eps})
    rows = []
    for rnd in rounds:
        for tier in tiers:
            runs = [statistics.fmean(v) for (r, t, _), v in per_run.items() if r == rnd and t == tier]
            mean = statistics.fmean(runs) if runs else math.nan
            se = statistics.stdev(runs) / math.sqrt(len(runs)) if len(runs) > 1 else math.nan
            e = eps[(rnd, tier)]
            rows.append([rnd, tier, len(e) // max(len({k[0] for k in tier_of}), 1),
                         statistics.median(e), max(e), statistics.fmean(eligible[(rnd, tier)]),
                         mean, se])
    out_csv = os.path.join(a.dir, "tiers.csv")
    with open(out_csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["round", "tier", "agents", "epsilon_median", "epsilon_max", "eligible_share",
                    "regret_mean", "regret_se"])
        w.writerows(rows)
    print(f"personal_tiers: wrote {out_csv}")
    if a.no_figure:
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    for tier in tiers:
        mine = [r for r in rows if r[1] == tier]
        x = [r[0] for r in mine]
        label = f"tier {tier}" if tier else "no tier"
        left.plot(x, [r[3] for r in mine], label=label)
        m = [r[6] for r in mine]
        s = [r[7] if not math.isnan(r[7]) else 0 for r in mine]
        right.plot(x, m, label=label)
        right.fill_between(x, [u - v for u, v in zip(m, s)], [u + v for u, v in zip(m, s)], alpha=0.2)
    left.set_xlabel("round")
    left.set_ylabel("median epsilon of the tier")
    right.set_xlabel("round")
    right.set_ylabel("mean simple regret (+- s.e. over runs)")
    right.set_yscale("log")
    left.legend()
    fig.tight_layout()
    out_png = a.out or os.path.join(a.dir, "tiers.png")
    fig.savefig(out_png, dpi=120)
    print(f"personal_tiers: wrote {out_png}")


if __name__ == "__main__":
    main()
