#!/usr/bin/python3
"""The schedules compared at equal privacy (issue 41 sec. 4; docs/TIME.md, "Schedules compared
at equal privacy").

    tools/async_compare.py CONFIG [CONFIG ...] --out DIR [--target-epsilon E] [--runs R]
                           [--fbosim BIN] [--z-only]

For each CONFIG (configs/async/compare_*.yaml: 20 % of the agents ten times slower, constant
durations) and each schedule below, DP-FTS-DE's noise multiplier z is chosen from the replayed
time line alone (`fbosim privacy CONFIG --format csv`, no objective evaluated): the smallest z,
to 3 significant digits by bisection, whose largest per-agent epsilon over the runs and agents
is at most the target (never above it: the bisection keeps the z that meets it). Then
DP-FTS-DE at that z and TS (no server, nothing private) run under each schedule, and
plot_results.py --vs-time draws regret and per-agent epsilon against simulated time.

  rounds     schedule.kind deadline with D = 10 s, the slow agents' duration: with constant
             durations every agent completes one evaluation per round and the fast ones wait,
             which is the papers' synchronous round put on the clock (draw for draw, tested in
             async_engine_test's degenerate case), charged as `rounds` charges
  deadline   D = 1 s, the fast agents' duration: a slow agent's message joins the release of
             the round it arrives in
  buffered   K = N / 4: a release once K agents have a new message, charged at q = 1

Writes DIR/configs/<config>_<schedule>.yaml (CONFIG with the schedule block replaced), DIR/z.tsv (config, schedule, z, epsilon), DIR/<config>_<algorithm>_<schedule>/ (each
`fbosim run`'s results), DIR/<config>_time.png (one figure per config) and DIR/table.tsv (final
regret, or 1 - the best value where the optimum is unknown, with its s.e. over the runs; the time
to the target regret; the largest and the median per-agent epsilon).
Run it under `nice -n 10`; every run uses one thread.
"""
import argparse
import csv
import io
import math
import os
import subprocess
import sys

import yaml


def schedules(agents):
    return {
        "rounds": {"kind": "deadline", "deadline": 10},
        "deadline": {"kind": "deadline", "deadline": 1},
        "buffered": {"kind": "buffered", "buffer": max(1, agents // 4)},
    }


def variant(config, schedule, keys, out):
    """CONFIG with its schedule block replaced (a key of another kind would be unknown), written
    under OUT/configs/."""
    with open(config, encoding="utf-8") as fh:
        tree = yaml.safe_load(fh)
    tree["schedule"] = keys
    tree["name"] = f"{tree.get('name', 'config')}_{schedule}"
    d = os.path.join(out, "configs")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, f"{os.path.splitext(os.path.basename(config))[0]}_{schedule}.yaml")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"# {config} under schedule.kind {keys['kind']} (tools/async_compare.py)\n")
        yaml.safe_dump(tree, fh, sort_keys=False)
    return path


def sets_args(sets):
    out = []
    for s in sets:
        out += ["--set", s]
    return out


def config_agents(config):
    with open(config, encoding="utf-8") as fh:
        return int(yaml.safe_load(fh)["agents"]["count"])


def largest_epsilon(fbosim, config, sets, z):
    """The largest per-agent epsilon over runs and agents of the config at z (replayed)."""
    out = subprocess.run([fbosim, "privacy", config, "--format", "csv"] +
                         sets_args(sets + [f"server.noise_multiplier={z:.6g}"]),
                         check=True, capture_output=True, text=True).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    column = [c for c in rows[0] if c.startswith("epsilon_")][0]
    return max(float(r[column]) for r in rows)


def equal_privacy_z(fbosim, config, sets, target):
    """The smallest z (3 significant digits) whose largest per-agent epsilon is <= target."""
    lo, hi = 0.05, 0.05
    while largest_epsilon(fbosim, config, sets, hi) > target:
        lo, hi = hi, hi * 2
        if hi > 1e4:
            sys.exit(f"async_compare: {config} {sets}: no z up to 1e4 meets epsilon {target}")
    while hi / lo > 1.001:
        mid = math.sqrt(lo * hi)
        if largest_epsilon(fbosim, config, sets, mid) > target:
            lo = mid
        else:
            hi = mid
    z = float(f"{hi:.3g}")
    if z < hi:  # rounding down must not raise the epsilon above the target
        z = float(f"{hi * 1.001:.3g}")
    eps = largest_epsilon(fbosim, config, sets, z)
    # The accountants' epsilon need not fall smoothly in z (the moments accountant's integer
    # orders): step up on the 3-digit grid until the target is met, never report above it.
    while eps > target:
        z = float(f"{z + 10 ** (math.floor(math.log10(z)) - 2):.3g}")
        eps = largest_epsilon(fbosim, config, sets, z)
    return z, eps


def column(path, name):
    with open(path, encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return [r[name] for r in rows]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("configs", nargs="+")
    p.add_argument("--out", required=True)
    p.add_argument("--target-epsilon", type=float, default=5.0)
    p.add_argument("--runs", type=int, help="override each config's runs")
    p.add_argument("--fbosim", default="build/fbosim")
    p.add_argument("--z-only", action="store_true", help="choose z and write z.tsv only")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    z_rows, table = ["config\tschedule\tz\tepsilon"], [
        "config\talgorithm\tschedule\tz\tfinal_regret_or_error\tse\ttime_to_target\tse\treached\t"
        "epsilon_max\tepsilon_median"]
    for config in a.configs:
        stem = os.path.splitext(os.path.basename(config))[0]
        extra = [f"runs={a.runs}"] if a.runs else []
        dirs = []
        for schedule, keys in schedules(config_agents(config)).items():
            path, sets = variant(config, schedule, keys, a.out), []
            z, eps = equal_privacy_z(a.fbosim, path, sets + extra, a.target_epsilon)
            z_rows.append(f"{stem}\t{schedule}\t{z}\t{eps:.6g}")
            print(f"async_compare: {stem} {schedule}: z = {z} (largest epsilon {eps:.4g})",
                  flush=True)
            if a.z_only:
                continue
            for algorithm in ("dp_fts_de", "ts"):
                name = f"{stem}_{algorithm}_{schedule}"
                d = os.path.join(a.out, name)
                run_sets = sets + extra + [f"algorithm={algorithm}", f"name={name}"]
                if algorithm == "dp_fts_de":
                    run_sets.append(f"server.noise_multiplier={z}")
                else:  # TS has no server: its keys would be unknown
                    run_sets = [s for s in run_sets if not s.startswith("server.")]
                subprocess.run([a.fbosim, "run", path, "--out", d, "--threads", "1",
                                "--force", "--quiet"] + sets_args(run_sets), check=True)
                dirs.append(d)
                regret = column(os.path.join(d, "summary.csv"), "mean_regret")[-1]
                se = column(os.path.join(d, "summary.csv"), "se_regret")[-1]
                if regret == "":  # no known optimum (landmine): the error 1 - best value
                    regret = repr(1 - float(column(os.path.join(d, "summary.csv"),
                                                   "mean_best_f")[-1]))
                    se = column(os.path.join(d, "summary.csv"), "se_best_f")[-1]
                target = os.path.join(d, "time_to_target.csv")
                t = (column(target, "mean_time")[0], column(target, "se_time")[0],
                     f"{column(target, 'reached')[0]}/{column(target, 'runs')[0]}") \
                    if os.path.exists(target) else ("", "", "")
                agents = os.path.join(d, "agents.csv")
                eps_max = column(os.path.join(d, "summary.csv"), "epsilon")[-1]
                eps_med = column(os.path.join(d, "summary.csv"), "epsilon_median")[-1] \
                    if os.path.exists(agents) else ""
                table.append("\t".join([stem, algorithm, schedule,
                                        str(z) if algorithm == "dp_fts_de" else "", regret, se,
                                        *t, eps_max, eps_med]))
        if not a.z_only:
            subprocess.run([sys.executable, os.path.join(here, "plot_results.py"), *dirs,
                            "--vs-time", "--name-labels", "--out",
                            os.path.join(a.out, f"{stem}_time")], check=True)
    with open(os.path.join(a.out, "z.tsv"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(z_rows) + "\n")
    if not a.z_only:
        with open(os.path.join(a.out, "table.tsv"), "w", encoding="utf-8") as fh:
            fh.write("\n".join(table) + "\n")
        print("\n".join(table))


if __name__ == "__main__":
    main()
