#!/usr/bin/python3
"""Privacy-loss figures for the accountants (issue: privacy accounting beyond the paper).

1. results/figures/privacy_vs_rounds.{png,pdf}: epsilon after t rounds, t = 1..60, for the paper's
   synthetic setting (N = 200, q = 0.25, z = 1) and landmine setting (N = 29, q = 0.35, z = 1),
   delta = N^-1.1, under every accountant (moments = the paper's, rdp, pld, gdp).
2. results/figures/fig3a_tight.{png,pdf}: the privacy-utility plot of Fig. 3a (landmine) with the
   epsilon of each (q, z) point under the moments accountant and under pld, when the results of
   the Fig. 3a grid exist (results/fig3_landmine_q<q>_z<z>/summary.csv, as tools/reproduce.sh
   writes them); otherwise that panel is skipped with a message.

Epsilons come from `fbosim privacy --format csv` (build/fbosim, or $FBOSIM_BIN).
Only python3-matplotlib and python3-pandas are needed.
"""
import argparse
import csv
import io
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

ACCOUNTANTS = ["moments", "rdp", "pld", "gdp"]
STYLE = {"moments": ("tab:red", "-"), "rdp": ("tab:blue", "--"), "pld": ("tab:green", "-"),
         "gdp": ("tab:gray", ":")}
LABEL = {"moments": "moments (paper)", "rdp": "RDP (improved conversion)",
         "pld": "PLD (upper bound)", "gdp": "GDP (CLT approximation)"}
SETTINGS = [("synthetic", 200, 0.25, 1.0), ("landmine", 29, 0.35, 1.0)]
# Fig. 3a grid: z at q = 0.35 and q at z = 1 (spec dp-fts-de.md section 7).
GRID = [(0.35, z) for z in (1, 1.6, 2, 3, 4)] + [(q, 1) for q in (0.1, 0.15, 0.2, 0.25)]


def epsilon(binary, accountant, q, z, steps, agents):
    out = subprocess.run([binary, "privacy", "--accountant", accountant, "--q", str(q), "--z",
                          str(z), "--steps", str(steps), "--agents", str(agents), "--format",
                          "csv"], check=True, capture_output=True, text=True).stdout
    return float(next(csv.DictReader(io.StringIO(out)))["epsilon"])


def save(fig, out_dir, name):
    os.makedirs(out_dir, exist_ok=True)
    for ext in ("png", "pdf"):
        fig.savefig(os.path.join(out_dir, f"{name}.{ext}"), dpi=120, bbox_inches="tight")
    plt.close(fig)
    print(f"wrote {out_dir}/{name}.png and .pdf")


def privacy_vs_rounds(binary, out_dir, rounds):
    fig, axes = plt.subplots(1, len(SETTINGS), figsize=(10, 3.8))
    for ax, (name, n, q, z) in zip(axes, SETTINGS):
        ts = list(range(1, rounds + 1))
        for acc in ACCOUNTANTS:
            colour, ls = STYLE[acc]
            ax.plot(ts, [epsilon(binary, acc, q, z, t, n) for t in ts], color=colour,
                    linestyle=ls, label=LABEL[acc])
        ax.set_title(f"{name}: N = {n}, q = {q}, z = {z}\ndelta = N^-1.1", fontsize=10)
        ax.set_xlabel("rounds T")
        ax.set_ylabel("epsilon")
        ax.grid(alpha=0.3)
    axes[0].legend()
    save(fig, out_dir, "privacy_vs_rounds")


def fig3a_tight(binary, results, out_dir, rounds):
    rows = []
    for q, z in GRID:
        path = os.path.join(results, f"fig3_landmine_q{q:g}_z{z:g}", "summary.csv")
        if not os.path.exists(path):
            continue
        last = pd.read_csv(path).iloc[-1]
        error, se = 1 - last["mean_best_f"], last["se_best_f"]
        for acc in ("moments", "pld"):
            rows.append((acc, q, z, epsilon(binary, acc, q, z, rounds, 29), error, se))
    if not rows:
        print(f"fig3a_tight: skipped, no results/fig3_landmine_q*_z* under {results}",
              file=sys.stderr)
        return False
    df = pd.DataFrame(rows, columns=["accountant", "q", "z", "epsilon", "error", "se"])
    fig, ax = plt.subplots(figsize=(5, 3.8))
    for acc, marker in (("moments", "o"), ("pld", "s")):
        d = df[df.accountant == acc].sort_values("epsilon")
        ax.errorbar(d.epsilon, d.error, yerr=d.se, fmt=marker, color=STYLE[acc][0],
                    label=LABEL[acc], capsize=2)
    # The non-private baselines as horizontal lines, as in the paper.
    for name, colour in (("landmine_ts", "black"), ("landmine_fts", "tab:purple"),
                         ("landmine_fts_de", "tab:orange")):
        path = os.path.join(results, name, "summary.csv")
        if os.path.exists(path):
            ax.axhline(1 - pd.read_csv(path).iloc[-1]["mean_best_f"], color=colour,
                       linestyle="--", linewidth=1, label=name.replace("landmine_", "").upper())
    ax.set_xlabel(f"privacy loss epsilon after {rounds} rounds")
    ax.set_ylabel("best validation error (1 - AUC)")
    ax.set_title("Fig. 3a (landmine) with the tight epsilon")
    ax.grid(alpha=0.3)
    ax.legend()
    save(fig, out_dir, "fig3a_tight")
    return True


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", default="results")
    p.add_argument("--out", default="results/figures")
    p.add_argument("--rounds", type=int, default=60)
    p.add_argument("--binary", default=os.environ.get("FBOSIM_BIN", "build/fbosim"))
    a = p.parse_args()
    if not os.access(a.binary, os.X_OK):
        sys.exit(f"plot_privacy: no fbosim binary at {a.binary} (build first or set FBOSIM_BIN)")
    privacy_vs_rounds(a.binary, a.out, a.rounds)
    fig3a_tight(a.binary, a.results, a.out, a.rounds)


if __name__ == "__main__":
    main()
