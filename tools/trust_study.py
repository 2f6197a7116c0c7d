#!/usr/bin/python3
"""The price of trust (issue 42, docs/TRUST.md): utility against epsilon for each trust model of
configs/trust/<objective>.yaml (the file is `central`, each "# curve:" line one other model), each
model's noise set by ITS OWN ledger for each target epsilon, all models run with the same seeds.

    tools/trust_study.py calibrate --config configs/trust/synthetic.yaml --out DIR [--eps 1,2,4,8]
    tools/trust_study.py run       --config ... --out DIR          (runs what calibrate chose)
    tools/trust_study.py table     --config ... --out DIR [--markdown FILE]
    tools/trust_study.py figure    --config ... --out DIR --figure FILE.png
  common: [--bin build/fbosim] [--models a,b,...] [--runs R] (default: the config's `runs`)

The models also include `nodp`, FTS-DE without DP on the same seeds (the utility no noise costs;
it does not depend on epsilon: run it with --eps 8 only, the table shows it where it was run).
Calibration, per model (the noise key is server.noise_multiplier, server.local_z for `local`):
  plan     the ledger is the plan `fbosim privacy CONFIG` prints (every agent charged every round:
           central; distributed with agents' coins and no dropouts or with padding, whose plan
           bounds the ledger; local with the secret coin): the smallest noise whose plan is at
           most the target, by bisection on log z (40 steps).
  scale    the ledger charges Gaussians only (distributed with server sampling: the survivors
           of each sum at z_eff = z sqrt(...); local without the coin: each message sent at
           z_local). Each agent's RDP is then alpha K_n / (2 z^2) for a K_n that the selection and
           dropouts fix (they do not depend on z), so its epsilon is that of one Gaussian of
           multiplier z / sqrt(K_n). A pilot of the study's runs (same seeds) at z0 = 1 gives the
           largest agent's epsilon e0 over the runs; with zG(e) the one-step Gaussian multiplier
           of epsilon e (`fbosim privacy --q 1 --steps 1 --target-epsilon e`, the same
           accountant and delta), z = z0 zG(target) / zG(e0). The study's runs report their
           ledgers' epsilon (the table's eps_max column), which checks it.
  floor    distributed with agents' coins, dropouts and no padding (no plan: `fbosim privacy`
           refuses it): each round charges the survivors PoissonSampled(q, z sqrt(m'/N)), at
           least as private as at m' = m'_min, the fewest messages received in any round of a
           pilot of the study's runs; z = z_plan / sqrt(m'_min / N) with z_plan the plan's
           noise for the model without dropouts.
Utility per run: synthetic, the agents' mean simple regret (`regret`); landmine, their mean best
validation AUC (`best_f`); both at the last round (`last`) and averaged over the rounds (`mean`). Each model is compared with `central` at the same
target epsilon run by run (same seeds: common random numbers): the mean paired difference and its
standard error over runs, and the smallest difference in `mean` that a two-sided 5 % paired t test
detects with 80 % power, (t(0.975, R-1) + t(0.80, R-1)) s.e. (`detectable_mean`).
"""
import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys

# t quantiles keyed by the runs R (R - 1 degrees of freedom): T975[8] = t(0.975, 7). Used only
# where scipy is missing.
T975 = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 7: 2.447, 8: 2.365, 9: 2.306,
        10: 2.262, 12: 2.201, 16: 2.131, 20: 2.093}
T80 = {2: 1.376, 3: 1.061, 4: 0.978, 5: 0.941, 6: 0.920, 7: 0.906, 8: 0.896, 9: 0.889,
       10: 0.883, 12: 0.876, 16: 0.866, 20: 0.861}


def detectable_factor(runs):
    """t(0.975, R - 1) + t(0.80, R - 1): the tables above are keyed by R, the runs (df R - 1)."""
    try:
        from scipy.stats import t
        return float(t.ppf(0.975, runs - 1) + t.ppf(0.80, runs - 1))
    except ImportError:
        if runs not in T975:
            die(f"no t quantiles for {runs} runs without scipy")
        return T975[runs] + T80[runs]


def die(msg):
    print(f"trust_study: {msg}", file=sys.stderr)
    sys.exit(1)


def models(config):
    """[(name, [--set ...])]: central first, then every curve of the config's header."""
    text = open(config).read()
    base = re.search(r"^name:\s*(\S+)", text, re.M).group(1)
    out = [("central", [])]
    for line in re.findall(r"^# curve: (.*)$", text, re.M):
        sets = re.findall(r"--set (\S+)", line)
        name = [s.split("=", 1)[1] for s in sets if s.startswith("name=")][0]
        name = name[len(base.split("_")[0]) + 1:]  # syn_ds_d0 -> ds_d0
        out.append((name, [s for s in sets if not s.startswith("name=")]))
    # The reference without DP (FTS-DE, the same seeds): how much utility any noise costs.
    out.append(("nodp", ["algorithm=fts_de"]))
    return out


def setting(sets, key, default=None):
    for s in sets:
        k, v = s.split("=", 1)
        if k == key:
            return v
    return default


def kind(sets):
    if setting(sets, "algorithm") == "fts_de":
        return "none"
    trust = setting(sets, "server.trust", "central")
    if trust == "local":
        return "plan" if setting(sets, "server.local_coin") == "true" else "scale"
    if trust == "distributed":
        if setting(sets, "server.sampled_by", "server") == "server":
            return "scale"
        dropout = float(setting(sets, "network.dropout", "0"))
        return "floor" if dropout > 0 and float(setting(sets, "server.dropout_padding", "0")) == 0 \
            else "plan"
    return "plan"


def noise_key(sets):
    return "server.local_z" if setting(sets, "server.trust") == "local" else "server.noise_multiplier"


def setargs(sets):
    return [a for s in sets for a in ("--set", s)]


def fbosim(args, binary):
    r = subprocess.run(["nice", "-n", "10", binary] + args, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"{' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def plan_epsilon(a, sets, z):
    out = fbosim(["privacy", a.config, "--format", "csv"] + setargs(sets + [f"{noise_key(sets)}={z}"]),
                 a.bin)
    rows = list(csv.DictReader(out.splitlines()))
    return float(rows[-1]["epsilon"])


def bisect_plan(a, sets, target):
    lo, hi = math.log(0.01), math.log(500.0)
    if plan_epsilon(a, sets, math.exp(hi)) > target:
        die(f"no noise up to 500 reaches epsilon {target}")
    for _ in range(40):
        mid = (lo + hi) / 2
        if plan_epsilon(a, sets, math.exp(mid)) <= target:
            hi = mid
        else:
            lo = mid
    return math.exp(hi)


def delta_of(a):
    out = fbosim(["privacy", a.config, "--format", "csv"], a.bin)
    return float(list(csv.DictReader(out.splitlines()))[-1]["delta"])


def gaussian_z(a, eps, delta):
    out = fbosim(["privacy", "--q", "1", "--steps", "1", "--delta", repr(delta), "--accountant",
                  "rdp", "--target-epsilon", repr(eps), "--format", "csv"], a.bin)
    return float(list(csv.DictReader(out.splitlines()))[-1]["z"])


def run(a, sets, z, out, runs):
    if os.path.exists(os.path.join(out, "summary.csv")):
        return  # already run (the study resumes)
    noise = [] if kind(sets) == "none" else [f"{noise_key(sets)}={z}"]
    fbosim(["run", a.config, "--runs", str(runs), "--threads", "1", "-q", "--force", "--out", out]
           + setargs(sets + noise), a.bin)


def final_epsilons(out):
    last = {}
    with open(os.path.join(out, "server.csv")) as f:
        for row in csv.DictReader(f):
            r = int(row["run"])
            if r not in last or int(row["round"]) >= last[r][0]:
                last[r] = (int(row["round"]), float(row["epsilon"]) if row["epsilon"] else 0.0)
    return [last[r][1] for r in sorted(last)]


def fewest_received(out):
    with open(os.path.join(out, "server.csv")) as f:
        return min(int(r["received"]) for r in csv.DictReader(f))


def calibrate(a):
    plan = {}
    delta = delta_of(a)
    path = os.path.join(a.out, "calibration.json")
    if os.path.exists(path):
        plan = json.load(open(path))
    agents = int(re.search(r"count:\s*(\d+)", open(a.config).read()).group(1))
    for name, sets in selected(a):
        k = kind(sets)
        for eps in a.eps:
            key = f"{name}@{eps:g}"
            if key in plan:
                continue
            entry = {"model": name, "eps": eps, "kind": k, "key": noise_key(sets), "delta": delta}
            if k == "none":
                entry.update(key="none", z=0.0)
            elif k == "plan":
                entry["z"] = bisect_plan(a, sets, eps)
            elif k == "scale":
                pilot = os.path.join(a.out, "pilot", name)
                run(a, sets, 1.0, pilot, a.runs)
                e0 = max(final_epsilons(pilot))
                entry.update(pilot_epsilon=e0, z=gaussian_z(a, eps, delta) / gaussian_z(a, e0, delta))
            else:
                pilot = os.path.join(a.out, "pilot", name)
                run(a, sets, 1.0, pilot, a.runs)
                m_min = fewest_received(pilot)
                base = [s for s in sets if not s.startswith("network.dropout=")]
                z_plan = bisect_plan(a, base, eps)
                entry.update(fewest_received=m_min, z_plan=z_plan,
                             z=z_plan / math.sqrt(m_min / agents))
            plan[key] = entry
            print(f"{key}: {entry['key']} = {entry['z']:.4g} ({k})", flush=True)
            json.dump(plan, open(path + ".tmp", "w"), indent=1)
            os.replace(path + ".tmp", path)


def selected(a):
    all_models = models(a.config)
    if not a.models:
        return all_models
    want = a.models.split(",")
    return [m for m in all_models if m[0] in want]


def run_all(a):
    plan = json.load(open(os.path.join(a.out, "calibration.json")))
    for name, sets in selected(a):
        for eps in a.eps:
            z = plan[f"{name}@{eps:g}"]["z"]
            run(a, sets, z, os.path.join(a.out, name, f"eps{eps:g}"), a.runs)
            print(f"ran {name} at epsilon {eps:g}", flush=True)


def utilities(out, metric):
    """Per run: the agents' mean metric at the last round, and its mean over the rounds."""
    by_round = {}
    with open(os.path.join(out, "trace.csv")) as f:
        for row in csv.DictReader(f):
            # An agent's row of a round (the last row per agent and round: its best so far).
            by_round[(int(row["run"]), int(row["round"]), int(row["agent"]))] = float(row[metric])
    per = {}
    for (r, t, _), v in by_round.items():
        per.setdefault(r, {}).setdefault(t, []).append(v)
    final, mean = [], []
    for r in sorted(per):
        rounds = {t: sum(v) / len(v) for t, v in per[r].items()}
        final.append(rounds[max(rounds)])
        mean.append(sum(rounds.values()) / len(rounds))
    return final, mean


def mean_se(x):
    n = len(x)
    m = sum(x) / n
    if n < 2:
        return m, float("nan")
    var = sum((v - m) ** 2 for v in x) / (n - 1)
    return m, math.sqrt(var / n)


def table(a):
    metric = "regret" if "gp_grid" in open(a.config).read() else "best_f"
    plan = json.load(open(os.path.join(a.out, "calibration.json")))
    lines = []
    header = ["model", "epsilon", "noise", "eps_max", "last", "diff_last", "se_last", "mean",
              "diff_mean", "se_mean", "detectable_mean"]
    for name, sets in selected(a):
        for eps in a.eps:
            out = os.path.join(a.out, name, f"eps{eps:g}")
            cen = os.path.join(a.out, "central", f"eps{eps:g}")
            if not os.path.exists(os.path.join(out, "trace.csv")):
                continue
            last, mean = utilities(out, metric)
            cal = plan[f"{name}@{eps:g}"]
            row = {"model": name, "epsilon": f"{eps:g}",
                   "noise": "no DP" if cal["key"] == "none" else f"{cal['key'].split('.')[-1]} {cal['z']:.3g}",
                   "eps_max": "none" if cal["key"] == "none" else f"{max(final_epsilons(out)):.3g}",
                   "last": "%.4f +- %.4f" % mean_se(last), "mean": "%.4f +- %.4f" % mean_se(mean)}
            for h in header:
                row.setdefault(h, "")
            if name != "central" and os.path.exists(os.path.join(cen, "trace.csv")):
                c_last, c_mean = utilities(cen, metric)
                for label, u, c in (("last", last, c_last), ("mean", mean, c_mean)):
                    dm, dse = mean_se([x - y for x, y in zip(u, c)])
                    row[f"diff_{label}"] = f"{dm:+.4f}"
                    row[f"se_{label}"] = f"{dse:.4f}"
                n = len(last)
                row["detectable_mean"] = f"{detectable_factor(n) * float(row['se_mean']):.4f}"
            lines.append(row)
    with open(os.path.join(a.out, "price_of_trust.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header)
        w.writeheader()
        w.writerows(lines)
    # The docs' table: each paired difference with its standard error in one cell.
    short = ["model", "epsilon", "noise", "eps", "last", "last - central", "mean",
             "mean - central", "detectable"]
    md = ["| " + " | ".join(short) + " |", "|" + "---|" * len(short)]
    for r in lines:
        pair = lambda k: f"{r['diff_' + k]} +- {r['se_' + k]}" if r["diff_" + k] else ""
        cells = [r["model"], r["epsilon"], r["noise"], r["eps_max"], r["last"], pair("last"),
                 r["mean"], pair("mean"), r["detectable_mean"]]
        md.append("| " + " | ".join(cells) + " |")
    text = "\n".join(md) + "\n"
    if a.markdown:
        open(a.markdown, "w").write(text)
    print(text)


def figure(a):
    """Utility (averaged over the rounds) against epsilon, one line per model, with +- 1 s.e."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    metric = "regret" if "gp_grid" in open(a.config).read() else "best_f"
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    for i, (name, _) in enumerate(selected(a)):
        xs, ys, es = [], [], []
        for eps in a.eps:
            out = os.path.join(a.out, name, f"eps{eps:g}")
            if not os.path.exists(os.path.join(out, "trace.csv")):
                continue
            m, se = mean_se(utilities(out, metric)[1])
            xs.append(eps)
            ys.append(m)
            es.append(se)
        if name == "nodp" and xs:
            ax.axhline(ys[0], color="black", lw=0.8, ls=":", label="no DP (FTS-DE)")
        elif xs:
            # Ten colours, then the same with dashes: 13 models stay told apart.
            ax.errorbar(xs, ys, yerr=es, marker="o", ms=3, lw=1, capsize=2, label=name,
                        color=f"C{i % 10}", ls="-" if i < 10 else "--")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("epsilon (each model's own ledger, delta = 1e-5)")
    ax.set_ylabel("mean simple regret" if metric == "regret" else "mean best validation AUC")
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    fig.savefig(a.figure, dpi=110)
    print(f"wrote {a.figure}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("step", choices=["calibrate", "run", "table", "figure"])
    p.add_argument("--config", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--bin", default="build/fbosim")
    p.add_argument("--eps", default="1,2,4,8")
    p.add_argument("--models", default="")
    p.add_argument("--runs", type=int, default=0)
    p.add_argument("--markdown", default="")
    p.add_argument("--figure", default="", help="the figure step's PNG")
    a = p.parse_args()
    if not os.path.isfile(a.config):
        die(f"{a.config}: no such config")
    a.eps = [float(e) for e in a.eps.split(",")]
    if not a.runs:
        a.runs = int(re.search(r"^runs:\s*(\d+)", open(a.config).read(), re.M).group(1))
    os.makedirs(a.out, exist_ok=True)
    {"calibrate": calibrate, "run": run_all, "table": table, "figure": figure}[a.step](a)


if __name__ == "__main__":
    main()
