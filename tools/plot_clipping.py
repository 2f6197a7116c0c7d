#!/usr/bin/python3
"""Utility against epsilon with fixed and adaptive clipping (issue 29; Andrew et al., NeurIPS 2021).

Runs DP-FTS-DE (build/fbosim, or $FBOSIM_BIN) on a grid of noise multipliers z, once with
`server.clipping: fixed` and once with `adaptive`, on the synthetic task (final mean simple
regret, lower is better) and, with --landmine, on landmine (final mean best validation AUC,
higher is better; needs FBOSIM_DATA or datasets.root), and draws the utility of the last round
against the run's epsilon (the last row of summary.csv: the `epsilon` column, which for adaptive
clipping includes the count's releases). Reduced sizes by default (see --help) so that the figure
takes minutes; pass the paper's sizes with --set for a full one.

  tools/plot_clipping.py --out results/figures/clipping_vs_epsilon.png [--landmine]

Every run's summary.csv is checked (a missing or non-finite value is an error naming the file,
exit 1, nothing written). Needs python3-matplotlib.
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

TASKS = {
    "synthetic": {
        "config": "configs/dp_fts_de/synthetic.yaml",
        "column": "mean_regret",
        "label": "final simple regret",
        "sets": ["rounds=30", "agents.count=100"],
        "runs": 4,
        "power_runs": 50,
    },
    "landmine": {
        "config": "configs/dp_fts_de/landmine.yaml",
        "column": "mean_best_f",
        "label": "final best validation AUC",
        "sets": ["rounds=20"],
        "runs": 3,
        "power_runs": 20,
    },
}


def last_row(path, column):
    """(utility, its standard error over runs, epsilon) of the last round."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"plot_clipping: cannot read {path}: {e}")
    if not rows:
        sys.exit(f"plot_clipping: {path} has no rows")
    row = rows[-1]
    out = []
    for key in (column, column.replace("mean_", "se_", 1), "epsilon"):
        try:
            v = float(row[key])
        except (KeyError, ValueError):
            sys.exit(f"plot_clipping: {path}: no number in column {key!r} of the last row")
        if not math.isfinite(v):
            sys.exit(f"plot_clipping: {path}: {key} = {v} in the last row")
        out.append(v)
    return out


def run_grid(binary, task, spec, zs, workdir, extra, power):
    points = {"fixed": [], "adaptive": []}
    for clipping in points:
        for z in zs:
            out = os.path.join(workdir, f"{task}_{clipping}_z{z}")
            cmd = [binary, "run", spec["config"], "--quiet", "--out", out,
                   "--runs", str(spec["power_runs"] if power else spec["runs"]),
                   "--set", f"server.noise_multiplier={z}", "--set", f"server.clipping={clipping}"]
            for s in ([] if power else spec["sets"]) + extra:
                cmd += ["--set", s]
            print(" ".join(cmd), flush=True)
            if subprocess.run(cmd).returncode != 0:
                sys.exit(f"plot_clipping: failed: {' '.join(cmd)}")
            u, se, eps = last_row(os.path.join(out, "summary.csv"), spec["column"])
            points[clipping].append((eps, u, z, se))
    return points


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="results/figures/clipping_vs_epsilon.png")
    ap.add_argument("--landmine", action="store_true", help="also the landmine panel")
    ap.add_argument("--z", default="0.5,1,2,4", help="noise multipliers (comma-separated)")
    ap.add_argument("--set", action="append", default=[], help="extra KEY=VALUE for every run")
    ap.add_argument("--power", action="store_true",
                    help="the configs' own sizes, 50 runs (synthetic) and 20 (landmine) per point")
    args = ap.parse_args()
    binary = os.environ.get("FBOSIM_BIN", "build/fbosim")
    zs = [float(z) for z in args.z.split(",")]
    tasks = ["synthetic"] + (["landmine"] if args.landmine else [])
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    with tempfile.TemporaryDirectory(prefix="fbosim_clipping_") as work:
        results = {t: run_grid(binary, t, TASKS[t], zs, work, args.set, args.power) for t in tasks}
    fig, axes = plt.subplots(1, len(tasks), figsize=(4.2 * len(tasks), 3.2), squeeze=False)
    for ax, task in zip(axes[0], tasks):
        for clipping, marker in (("fixed", "o-"), ("adaptive", "s--")):
            pts = sorted(results[task][clipping])
            ax.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[p[3] for p in pts],
                        fmt=marker, capsize=2, label=f"{clipping} clipping")
            for eps, u, z, se in pts:
                print(f"{task} {clipping} z={z}: epsilon {eps:.4g}, {TASKS[task]['column']} "
                      f"{u:.4g} +- {se:.2g}")
        ax.set_xscale("log")
        ax.set_xlabel("epsilon (server.accountant)")
        ax.set_ylabel(TASKS[task]["label"])
        ax.set_title(f"DP-FTS-DE, {task}")
        ax.legend(fontsize=8)
    fig.tight_layout()
    tmp = args.out + ".tmp.png"
    fig.savefig(tmp, dpi=80)
    os.replace(tmp, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
