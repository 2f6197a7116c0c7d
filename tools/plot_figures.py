#!/usr/bin/python3
"""Redraws the figures of Dai, Low, Jaillet, "Differentially Private Federated Bayesian
Optimization with Distributed Exploration" (NeurIPS 2021): Fig. 2a-d, 3a-f and 4-12, and of
their "Federated Bayesian Optimization via Thompson Sampling" (NeurIPS 2020; ids fts_*): Fig.
1a-c, 2a and 3a, from the results fbosim writes (results/<name>/summary.csv,
config.resolved.yaml, and for FTS's Fig. 3a trace.csv and timing.csv).

    tools/plot_figures.py [--results DIR] [--out DIR] [--only fig2a,fig3,...] [--list]
                          [--log | --linear] [--bare | --no-title --no-footnote]
                          [--format png,pdf,svg] [--rounds T]
    tools/plot_figures.py --self-test

--results defaults to results/, --out to <results>/figures/; each figure is <id>.png and
<id>.pdf (--format). Simple regret is drawn on a log axis, errors on a linear one, FTS Fig.
2a's message length on a log axis (--log / --linear set the utility axis of every figure);
--bare drops titles and footnotes; colours and label placement: docs/FIGURES.md. --only takes
ids or prefixes (fig3 = fig3a-f, fig7 = fig7a,b); --list prints the result names each figure
reads; --self-test draws known data and checks what was drawn.

Every curve is mean +- standard error over runs, as summary.csv gives it (the runs are the
independent replications; a run's agents share its function). The paper's "All error bars
denote standard errors" are most likely over (agent, run) pairs, several times narrower:
`standard_error: pairs` in a config gives those. FTS Fig. 2a plots the best validation error after the last iteration
against the floats each agent sends (M for FTS, M + M^2 for RGPE, M + M^2 + 1 for TAF; log
scale), FTS Fig. 3a the best error against the run's wall time (timing.csv, the sources'
histories excluded) for the first target agent's runs. Synthetic figures plot simple regret against
iterations; real-world figures plot the best validation error (1 - best_f: 1 - AUC for
landmine, 1 - accuracy for activity and EMNIST). Fig. 3a-c (and 11) plot the privacy loss
epsilon after the last iteration against that error, one point per (q, z), with the
non-private baselines as horizontal lines. Legends come from each curve's
config.resolved.yaml (the keys in which the curves of a figure differ), not from its name.

A figure with missing results (not run yet) is skipped with one line on stderr naming the
missing result directories. Results that are there but cannot be used (an empty, truncated or
damaged CSV or config.resolved.yaml, a NaN where fbosim writes a number: see
tools/fbosim_results.py) get an error line naming the file, line, column and value, for every
figure they spoil, and then no figure is written (exit 1). Figures are written under
temporary names and renamed once all are complete. The exit status is 0 if at least one figure
was drawn, else 1.

Uses only Debian's python3-matplotlib and python3-pandas and the standard library (hence the
shebang: /usr/bin/python3, where Debian's packages live).
"""

import argparse
import contextlib
import io
import math
import os
import shutil
import sys
import tempfile

try:
    import matplotlib
    import pandas  # noqa: F401
except ImportError as missing:  # e.g. a pyenv or venv python3 without Debian's packages
    debian = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(debian) and os.access(debian, os.X_OK):
        os.execv(debian, [debian] + sys.argv)  # Debian's python3 has them (tools/setup.sh)
    sys.exit(f"plot_figures: {missing}; install Debian's python3-matplotlib and python3-pandas "
             "(tools/setup.sh does) and run it with /usr/bin/python3")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fbosim_plots import (COLOURS, STYLE, SYMBOLS, Curve, add_style_arguments,  # noqa: E402
                          apply_scale, corner_note, curve_colours, draw_rounds, epsilon_axis,
                          figure_size, finish_axes,
                          legend_labels,
                          method_name, place_labels, plt, pd, read_resolved, save_all,
                          segments_cross, set_style, set_title, utility_scale)
from fbosim_results import ResultError, Table  # noqa: E402

# --------------------------------------------------------------------------------------------
# Expected result names (results/<name>/), one table for every figure. The synthetic names are
# those of configs/dp_fts_de/<figure>.yaml and their "# curve:" lines; the real-world ones those
# of landmine/activity/emnist.yaml and fig8-12b.yaml, and the privacy grids that
# tools/reproduce.sh runs (same q and z values as below).
# --------------------------------------------------------------------------------------------
DATASETS = {  # dataset -> (figure panel letters for Fig. 3 privacy / convergence, title)
    "landmine": ("a", "d", "Landmine detection (SVM, 1 - AUC)"),
    "activity": ("b", "e", "Human activity recognition (logistic regression)"),
    "emnist": ("c", "f", "EMNIST (CNN)"),
}
# Fig. 3a-c grid (Sec. 5.2): z sweep at q = 0.35 (green dots), q sweep at z = 1 (red dots).
Z_SWEEP = [1, 1.6, 2, 3, 4]
Q_SWEEP = [0.1, 0.15, 0.2, 0.25, 0.35]


def grid_name(prefix, q, z):
    """fig3_landmine_q0.35_z1.6 (numbers in %g form: 0.1, 0.35, 1, 1.6)."""
    return f"{prefix}_q{q:g}_z{z:g}"


def privacy_grid(prefix):
    return {
        "z sweep (q = 0.35)": [grid_name(prefix, 0.35, z) for z in Z_SWEEP],
        "q sweep (z = 1)": [grid_name(prefix, q, 1) for q in Q_SWEEP],
    }


def regret(title, curves):
    # Fig. 2c/2d quote epsilon after T = 40 iterations (Sec. 5.1).
    return {"kind": "regret", "title": title, "curves": curves, "epsilon_round": 40}


def error(title, curves):
    # Real-world: epsilon after the last (60th) iteration (Sec. 5.2).
    return {"kind": "error", "title": title, "curves": curves, "epsilon_round": None}


FIGURES = {
    "fig2a": regret("Fig. 2a: benefit of DE (no DP)",
                    ["fig2a_ts", "fig2a_fts", "fig2a_fts_de_p2", "fig2a_fts_de_p3"]),
    "fig2b": dict(regret("Fig. 2b: impact of S", [f"fig2b_s{s}" for s in (5, 8, 11, 15, 20)]),
                  clipped=True),
    "fig2c": regret("Fig. 2c: impact of q", ["fig2c_q0.15", "fig2c_q0.25", "fig2c_q0.5"]),
    "fig2d": regret("Fig. 2d: impact of z", ["fig2d_z1.0", "fig2d_z1.2", "fig2d_z1.5"]),
    "fig4": regret("Fig. 4: DP-FTS vs DP-FTS-DE", ["fig4_dp_fts", "fig4_dp_fts_de"]),
    "fig5": regret("Fig. 5: the two components of DE",
                   ["fig5_dp_fts_de", "fig5_no_weights", "fig5_no_local_init"]),
    "fig6": regret("Fig. 6: trade-off in P", [f"fig6_p{p}" for p in range(1, 6)]),
    "fig7a": regret("Fig. 7a: heterogeneous agents, alpha = 0.7",
                    ["fig7_alpha0.7_ts", "fig7_alpha0.7", "fig7_alpha0.7_fast"]),
    "fig7b": regret("Fig. 7b: heterogeneous agents, alpha = 1.0",
                    ["fig7_alpha1.0_ts", "fig7_alpha1.0", "fig7_alpha1.0_fast"]),
    "fig12a": regret("Fig. 12a: adaptive vs non-adaptive weights (synthetic)",
                     ["fig12a_ts", "fig12a_adaptive", "fig12a_non_adaptive"]),
}
for _d, (_pa, _pc, _title) in DATASETS.items():
    FIGURES["fig3" + _pa] = {
        "kind": "privacy", "title": f"Fig. 3{_pa}: {_title}",
        "series": privacy_grid(f"fig3_{_d}"),
        "baselines": [f"{_d}_ts", f"{_d}_fts", f"{_d}_fts_de"]}
    # Fig. 3d-f "convergence results for some settings" [choice]: the baselines, the default
    # DP-FTS-DE (q = 0.35, z = 1) and one more private setting along each sweep.
    FIGURES["fig3" + _pc] = error(
        f"Fig. 3{_pc}: {_title}",
        [f"{_d}_ts", f"{_d}_fts", f"{_d}_fts_de", f"{_d}_dp_fts_de",
         grid_name(f"fig3_{_d}", 0.35, 2), grid_name(f"fig3_{_d}", 0.15, 1)])
# Fig. 8 (activity): DP-FTS (P = 1, S = 11) vs DP-FTS-DE (P = 4, S = 22) at q = 0.35, z = 1
# (configs/dp_fts_de/fig8.yaml). The paper's three panels do not say their settings; one is drawn.
FIGURES["fig8"] = error("Fig. 8: DP-FTS vs DP-FTS-DE (activity)",
                        ["activity_ts", "fig8_dp_fts", "fig8_dp_fts_de"])
for _panel, _d in (("a", "activity"), ("b", "emnist")):
    # Fig. 9: default softmax weights and "weights 1-3" (App. B.2.3), FTS-DE and DP-FTS-DE
    # (q = 0.35, z = 1), with standard TS for reference.
    FIGURES["fig9" + _panel] = error(
        f"Fig. 9{_panel}: choice of weights ({_d})",
        [f"{_d}_ts"] + [f"fig9{_panel}_{alg}{w}" for alg in ("fts_de", "dp_fts_de")
                        for w in ("", "_w1", "_w2", "_w3")])
    # Fig. 10: P = 2, 3, 4, 6 sub-regions.
    FIGURES["fig10" + _panel] = error(
        f"Fig. 10{_panel}: number of sub-regions ({_d})",
        [f"{_d}_ts"] + [f"fig10{_panel}_{alg}_p{p}" for alg in ("fts_de", "dp_fts_de")
                        for p in (2, 3, 4, 6)])
# Fig. 11: the Fig. 3a grid rerun from configs/dp_fts_de/fig11.yaml (fixed-size sampling, rdp).
FIGURES["fig11"] = {"kind": "privacy", "title": "Fig. 11: landmine with Renyi DP (fixed-size sampling)",
                    "series": privacy_grid("fig11_landmine"),
                    "baselines": ["landmine_ts", "landmine_fts", "landmine_fts_de"]}
FIGURES["fig12b"] = error("Fig. 12b: adaptive vs non-adaptive weights (activity)",
                          ["activity_ts", "fig12b_adaptive", "fig12b_non_adaptive"])

# FTS (NeurIPS 2020), configs/fts/: Fig. 1a-c (synthetic; T = 50 [choice]) and the landmine
# study of Fig. 2a (best error vs message length) and 3a (best error vs run time, target 1).
FIGURES["fts_fig1a"] = regret("FTS Fig. 1a: d_n = 0.02, t_n = 40 (effect of M)",
                              ["fts_fig1a_ts"] + [f"fts_fig1a_m{m}" for m in (50, 100, 200)])
FIGURES["fts_fig1b"] = regret("FTS Fig. 1b: d_n = 0.02, t_n = 100 (effect of M)",
                              ["fts_fig1b_ts"] + [f"fts_fig1b_m{m}" for m in (50, 100, 200)])
FIGURES["fts_fig1c"] = regret("FTS Fig. 1c: heterogeneous sources, d_n = 1.2",
                              ["fts_fig1c_ts", "fts_fig1c", "fts_fig1c_fast"])
FTS_M = (50, 100, 150, 200)
FIGURES["fts_fig2a"] = {
    "kind": "message", "title": "FTS Fig. 2a: landmine, best 1 - AUC after 50 iterations",
    "series": {m: [f"{m.lower()}_landmine_m{k}" for k in FTS_M] for m in ("FTS", "RGPE", "TAF")},
    "baselines": ["fts_landmine_ts", "rgpe_landmine_m100_corrected",
                  "taf_landmine_m100_corrected"]}
FIGURES["fts_fig3a"] = {
    "kind": "time", "title": "FTS Fig. 3a: landmine, first target agent, M = 100",
    "curves": ["fts_landmine_ts", "fts_landmine_m100", "rgpe_landmine_m100", "taf_landmine_m100"]}
# App. D.2.1, Fig. 4a: the general setting (t_n increasing) against the simple one and TS, the
# first target agent (configs/fts/fig4a.yaml), best error against iterations [choice: the paper
# plots run time, which the general setting's per-iteration source steps would dominate].
FIGURES["fts_fig4a"] = error("FTS Fig. 4a: landmine, general vs simple setting, first target",
                             ["fts_fig4a_ts", "fts_fig4a_simple", "fts_fig4a_general"])
# App. D.2.3, Figs. 5 and 7: Fig. 3's curves for target agents 2-6, the runs of
# configs/fts/landmine.yaml and activity.yaml (run r's target is agent r mod 6: 5 runs each, the
# paper's 5 initialisations). Fig. 6 (Google Glass) has no data here.
FTS_TARGET_FIGURES = []
for _fig, _d, _title in (("5", "landmine", "landmine"), ("7", "activity", "mobile phone sensors")):
    for _k in range(1, 6):
        FIGURES[f"fts_fig{_fig}_t{_k + 1}"] = {
            "kind": "time", "target": _k,
            "title": f"FTS Fig. {_fig}: {_title}, target agent {_k + 1}, M = 100",
            "curves": [f"fts_{_d}_ts", f"fts_{_d}_m100", f"rgpe_{_d}_m100", f"taf_{_d}_m100"]}
        FTS_TARGET_FIGURES.append(f"fts_fig{_fig}_t{_k + 1}")

ORDER = ["fig2a", "fig2b", "fig2c", "fig2d", "fig3a", "fig3b", "fig3c", "fig3d", "fig3e",
         "fig3f", "fig4", "fig5", "fig6", "fig7a", "fig7b", "fig8",
         "fig9a", "fig9b", "fig10a", "fig10b", "fig11", "fig12a", "fig12b",
         "fts_fig1a", "fts_fig1b", "fts_fig1c", "fts_fig2a", "fts_fig3a", "fts_fig4a"] + \
    FTS_TARGET_FIGURES
assert sorted(ORDER) == sorted(FIGURES)

# --------------------------------------------------------------------------------------------
# Drawing
# --------------------------------------------------------------------------------------------
def expected_names(fig):
    if fig["kind"] in ("privacy", "message"):
        return [n for names in fig["series"].values() for n in names] + fig["baselines"]
    return fig["curves"]


def final_error(c):
    """(mean, se) of the best validation error after the last iteration."""
    return 1.0 - float(c.summary["mean_best_f"].iloc[-1]), float(c.summary["se_best_f"].iloc[-1])


def error_bars(se):
    """Standard errors for errorbar: one run has none (NaN), drawn as no bar (matplotlib
    refuses an all-NaN yerr)."""
    return [0.0 if math.isnan(s) else s for s in se]


def draw_message(ax, fig, curves_by_name):
    """FTS Fig. 2a: best error after the last iteration (y, +- se) against the floats each
    source sends (x, log scale), one series per method over M; TS and the corrected variants
    as reference lines / points."""
    notes, drawn = [], []
    for method, names in fig["series"].items():
        pts = [curves_by_name[n] for n in names]
        xs = [c.message_floats() for c in pts]
        ys, se = zip(*(final_error(c) for c in pts))
        ax.errorbar(xs, ys, yerr=error_bars(se), fmt="o-", capsize=3, label=method,
                    color=COLOURS[method])
        drawn += ys
        notes += [(f"M={c.integer('rff.features', lo=1)}", (x, y), COLOURS[method])
                  for c, x, y in zip(pts, xs, ys)]
    for n in fig["baselines"]:
        c = curves_by_name[n]
        y, se = final_error(c)
        drawn.append(y)
        if method_name(c) == "TS":
            ax.axhline(y, linestyle="--", color=COLOURS["TS"], label="TS (no communication)")
        else:
            ax.errorbar([c.message_floats()], [y], yerr=error_bars([se]), fmt="s", capsize=3,
                        mfc="white", color=COLOURS[method_name(c)],
                        label=method_name(c) + f" (M = {c.integer('rff.features', lo=1)})")
    # The paper's log message axis ([CODE-FTS], FTS Fig. 2); a linear error axis.
    ax.set_xscale("log")
    apply_scale(ax, utility_scale("linear"), values=drawn)
    place_labels(ax, notes)
    ax.set_xlabel("floats sent by each source agent (log scale)")
    ax.set_ylabel("best validation error (1 - AUC) after the last iteration")


def time_curve(c, target=0):
    """Mean elapsed wall time and mean best error per round over the runs whose target is
    agent `target` (run r's target is agent r mod target.agents), from trace.csv and
    timing.csv."""
    k = c.integer("target.agents", 1, lo=1)
    if target >= k:
        raise ResultError(f"{os.path.join(c.directory, 'config.resolved.yaml')}: target.agents = "
                          f"{k}, so agent {target} is never the target")
    t = Table(os.path.join(c.directory, "trace.csv"), ("run", "agent", "round", "best_f"))
    trace = pd.DataFrame({col: t.number(col, lo=0, integer=True)
                          for col in ("run", "agent", "round")})
    trace["best_f"] = t.number("best_f")
    t = Table(os.path.join(c.directory, "timing.csv"), ("run", "round", "elapsed"))
    timing = pd.DataFrame({"run": t.number("run", lo=0, integer=True),
                           "round": t.number("round", lo=0, integer=True),
                           "elapsed": t.number("elapsed", lo=0)})
    if timing.duplicated(["run", "round"]).any():
        raise ResultError(f"{t.path}: a (run, round) pair appears twice")
    runs = sorted(r for r in trace["run"].unique() if r % k == target)
    mine = trace[trace["run"].isin(runs) & (trace["agent"] == target)]
    if mine.empty:
        raise ResultError(f"{os.path.join(c.directory, 'trace.csv')}: no row of agent {target} "
                          f"in a run "
                          f"whose target it is (target.agents = {k})")
    best = mine.groupby(["run", "round"])["best_f"].last().unstack("run")
    t = timing[timing["run"].isin(runs)].pivot(index="round", columns="run", values="elapsed")
    if t.isna().any().any() or best.isna().any().any() or list(t.index) != list(best.index):
        raise ResultError(f"{c.directory}: trace.csv and timing.csv do not cover the same rounds "
                          f"of runs {', '.join(str(int(r)) for r in runs)}")
    return t.mean(axis=1).to_numpy(), 1.0 - best.mean(axis=1).to_numpy(), len(runs)


def draw_time(ax, fig, curves):
    drawn = []
    for c in curves:
        x, y, n = time_curve(c, fig.get("target", 0))
        ax.plot(x, y, label=f"{method_name(c)} ({n} runs)", linewidth=1.5,
                color=COLOURS[method_name(c)])
        drawn.extend(y)
    ax.set_xscale("log")
    apply_scale(ax, utility_scale("linear"), values=drawn)
    ax.set_xlabel("run time (seconds, log scale; the sources' histories excluded)")
    ax.set_ylabel("best validation error (1 - AUC)")


def missing_names(fig, results):
    files = ("summary.csv", "trace.csv", "timing.csv") if fig["kind"] == "time" else ("summary.csv",)
    return [n for n in dict.fromkeys(expected_names(fig))
            if not all(os.path.exists(os.path.join(results, n, f)) for f in files)]


# The view of the utility-against-iterations figures (--rounds): the synthetic figures show the
# paper's T = 40 iterations by default. Their utility axis: fbosim_plots.draw_rounds (log for
# simple regret, linear for an error; --log/--linear).
VIEW = {"rounds": 40}


def draw_curves(ax, fig, curves):
    synthetic = fig["kind"] == "regret"
    labels = None
    if any(c.clipped_percent() is not None for c in curves) and fig.get("clipped"):
        # Fig. 2b: how often the clip norm S bites, next to each S.
        base = legend_labels(curves, fig["epsilon_round"])
        labels = [b + (f", clipped {c.clipped_percent():.1f}%" if c.clipped_percent() is not None
                       else "") for b, c in zip(base, curves)]
    draw_rounds(ax, curves, fig["kind"], labels=labels, epsilon_round=fig["epsilon_round"],
                max_round=VIEW["rounds"] if synthetic else None)


def draw_privacy(ax, fig, curves_by_name):
    """Fig. 3a-c / 11: epsilon after the last iteration (x) vs final best validation error (y),
    one point per (q, z) with its standard error; non-private baselines as horizontal lines."""
    acc = None
    notes, drawn, xs_all, points = [], [], [], []
    in_both = set.intersection(*(set(names) for names in fig["series"].values()))
    annotated = set()
    for series, names in fig["series"].items():
        pts = [curves_by_name[n] for n in names]
        for c in pts:
            if not c.is_private():
                raise ResultError(f"{c.directory}: not a private run (summary.csv records no "
                                  "delta), but this figure draws its privacy loss")
        xs = [c.final_epsilon() for c in pts]
        mean = [float(c.y("error")[1][-1]) for c in pts]
        se = error_bars(float(c.y("error")[2][-1]) for c in pts)
        # The paper's green z dots and red q dots (Sec. 5.2), in the colour-blind-safe palette.
        colour = COLOURS[series.split(" (")[0]]
        z_sweep = series.startswith("z")
        # Circles for the z sweep, squares for the q sweep: apart in greyscale too.
        ax.errorbar(xs, mean, yerr=se, fmt="o" if z_sweep else "s", color=colour, capsize=3,
                    label=series)
        drawn += mean
        xs_all += xs
        points += [c for c in pts if c not in points]
        for n, c, x, y in zip(names, pts, xs, mean):
            q, z = c.get("server.sampling_rate"), c.get("server.noise_multiplier")
            if n in annotated or q is None or z is None:
                continue
            annotated.add(n)
            text = f"q={q:g}, z={z:g}" if n in in_both else (f"z={z:g}" if z_sweep else f"q={q:g}")
            notes.append((text, (x, y), "black" if n in in_both else colour))
        acc = acc or pts[0].get("server.accountant")
    base = [curves_by_name[n] for n in fig["baselines"]]
    colours, _ = curve_colours([method_name(c) for c in base], [""] * len(base))
    for c, label, style, colour in zip(base, legend_labels(base), ("--", "-.", ":"), colours):
        y = 1.0 - float(c.summary["mean_best_f"].iloc[-1])
        ax.axhline(y, linestyle=style, color=colour, label=label)
        drawn.append(y)
    apply_scale(ax, utility_scale("linear"), values=drawn)
    epsilon_axis(ax, xs_all)  # linear unless the epsilons span more than a decade
    # Each point's q or z, placed where it overlaps no other label and no point (the paper's
    # z = 2 and z = 4 points lie close: fixed offsets wrote "z=4z=2").
    place_labels(ax, notes)
    ax.set_xlabel(f"privacy loss epsilon after the last iteration ({acc or 'moments'} accountant)")
    ax.set_ylabel("best validation error after the last iteration")
    corner_note(ax, points, "error bars")


def draw_figure(fig_id, results):
    """Returns the matplotlib figure, or raises FileNotFoundError naming the missing results."""
    fig = FIGURES[fig_id]
    missing = missing_names(fig, results)
    if missing:
        raise FileNotFoundError(", ".join(os.path.join(results, n) for n in missing))
    names = list(dict.fromkeys(expected_names(fig)))
    curves = {n: Curve(os.path.join(results, n)) for n in names}
    figure, ax = plt.subplots(figsize=figure_size((6.4, 4.4)))
    try:
        if fig["kind"] == "privacy":
            draw_privacy(ax, fig, curves)
        elif fig["kind"] == "message":
            draw_message(ax, fig, curves)
        elif fig["kind"] == "time":
            draw_time(ax, fig, [curves[n] for n in fig["curves"]])
        else:
            draw_curves(ax, fig, [curves[n] for n in fig["curves"]])
    except BaseException:
        plt.close(figure)
        raise
    set_title(ax, fig["title"])
    finish_axes(ax)
    return figure


def select(only):
    if not only:
        return list(ORDER)
    chosen = []
    for item in (s.strip() for s in only.split(",") if s.strip()):
        # "fig3" selects fig3a-f, "fig7" fig7a and fig7b, "fts_fig5" fts_fig5_t2-t6; an exact
        # id selects itself.
        def suffix_ok(rest):
            return rest.isalpha() or (rest.startswith("_t") and rest[2:].isdigit())
        match = [f for f in ORDER if f == item] or \
                [f for f in ORDER if f.startswith(item) and suffix_ok(f[len(item):])]
        if not match:
            raise ValueError(f"--only: unknown figure '{item}' (known: {', '.join(ORDER)})")
        chosen += [f for f in match if f not in chosen]
    return chosen


def plot_all(results, out, figure_ids):
    """Draws the figures; returns (drawn, unreadable). A figure whose results are missing is
    skipped (not run yet); one whose results cannot be read is named with the file on stderr
    and counted as unreadable, and then nothing is written: the figures are saved, all at
    once, only when every figure with results could be drawn. Output errors raise
    ResultError."""
    drawn, unreadable = [], 0
    for fig_id in figure_ids:
        try:
            drawn.append((draw_figure(fig_id, results), os.path.join(out, fig_id)))
        except FileNotFoundError as e:
            print(f"plot_figures: skipped {fig_id}: missing results {e.args[0]}", file=sys.stderr)
        except ResultError as e:  # a damaged, truncated or foreign result file
            print(f"plot_figures: error: {fig_id}: {e}", file=sys.stderr)
            unreadable += 1
    if unreadable:
        for figure, _ in drawn:
            plt.close(figure)
        print(f"plot_figures: wrote nothing: {unreadable} figure(s) with unreadable results "
              "(above); fix or remove those results", file=sys.stderr)
        return 0, unreadable
    save_all(drawn)
    print(f"plot_figures: drew {len(drawn)} of {len(figure_ids)} figure(s) into {out}")
    return len(drawn), 0


# --------------------------------------------------------------------------------------------
# Self-test: synthetic results with known values must give the expected lines, bands, points,
# baselines and legend entries.
# --------------------------------------------------------------------------------------------
def _write_result(root, name, rows, config, delta=None):
    """summary.csv and config.resolved.yaml as fbosim writes them: rows (round, mean_regret,
    se_regret, mean_best_f, se_best_f, epsilon, n) at some rounds, each repeated up to the
    next given round so that every round 0..T has its row; runs: 2 and rounds: T added to the
    config; delta in every row of a private result."""
    d = os.path.join(root, name)
    os.makedirs(d, exist_ok=True)
    given = {r[0]: r for r in rows}
    last = max(given)
    current = given[min(given)]
    with open(os.path.join(d, "summary.csv"), "w", encoding="utf-8") as fh:
        fh.write("round,mean_regret,se_regret,mean_best_f,se_best_f,epsilon,delta,n\n")
        for t in range(last + 1):
            current = given.get(t, current)
            cells = (t,) + tuple(current[1:6]) + (delta, current[6])
            fh.write(",".join("" if v is None else repr(v) for v in cells) + "\n")
    with open(os.path.join(d, "config.resolved.yaml"), "w", encoding="utf-8") as fh:
        fh.write(config + ("" if "\nruns:" in config else "runs: 2\n") + f"rounds: {last}\n")


def _config(name, algorithm=None, p=2, dp=True, q=0.25, z=1.0, s=11):
    algorithm = algorithm or ("dp_fts_de" if dp else "fts_de")
    return (f"name: {name}\nalgorithm: {algorithm}\nobjective:\n  family: gp_grid\n"
            f"exploration:\n  subregions: {p}\n  weights:\n    scheme: softmax\n"
            f"server:\n  dp: {str(dp).lower()}\n  sampling_rate: {q}\n  noise_multiplier: {z}\n"
            f"  clip_norm: {s}\n  accountant: moments\n  accountants:\n    - rdp\n    - pld\n")


def _check(cond, what):
    if not cond:
        raise AssertionError(what)


def _close(a, b, tol=1e-12):
    return all(abs(x - y) <= tol for x, y in zip(a, b)) and len(list(a)) == len(list(b))


def self_test():
    with tempfile.TemporaryDirectory() as root:
        # fig2c: three DP curves differing only in q; regret rows (round, mean, se).
        known = {"fig2c_q0.15": (0.15, 0.5, 0.1), "fig2c_q0.25": (0.25, 0.4, 0.05),
                 "fig2c_q0.5": (0.5, 0.3, 0.02)}
        for name, (q, m, se) in known.items():
            rows = [(t, m / (t + 1), se, 1 - m, se / 2, 2.0 * q * t, 400) for t in range(3)]
            _write_result(root, name, rows, _config(name, q=q), delta=0.01)
        figure = draw_figure("fig2c", root)
        ax = figure.axes[0]
        lines, bands = ax.get_lines(), ax.collections
        _check(len(lines) == 3 and len(bands) == 3, "fig2c: one line and one band per curve")
        for line, band, (name, (q, m, se)) in zip(lines, bands, known.items()):
            mean = [m / (t + 1) for t in range(3)]
            _check(_close(line.get_xdata(), [0, 1, 2]), f"{name}: x = rounds")
            _check(_close(line.get_ydata(), mean), f"{name}: line = mean_regret")
            verts = band.get_paths()[0].vertices
            for t, mt in enumerate(mean):
                ys = sorted({round(y, 12) for x, y in verts if x == t})
                _check(_close(ys, [round(mt - se, 12), round(mt + se, 12)]),
                       f"{name}: band at round {t} = mean +- se, got {ys}")
            # Legend: method name + the varying q, and epsilon at the last round (t = 2 < 40).
            want = f"DP-FTS-DE (q = {q:g}), eps = {2.0 * q * 2:.2f} (t = 2)"
            _check(line.get_label() == want, f"{name}: label {line.get_label()!r} != {want!r}")
        plt.close(figure)

        # fig2a: TS / FTS / FTS-DE naming from algorithm, P and dp; no DP keys in the labels.
        for name, alg, p in (("fig2a_ts", "ts", 1), ("fig2a_fts", "fts", 1),
                             ("fig2a_fts_de_p2", "fts_de", 2), ("fig2a_fts_de_p3", "fts_de", 3)):
            _write_result(root, name, [(0, 0.2, 0.01, 0.8, 0.01, 0.0, 200)],
                          _config(name, alg, p, dp=False))
        figure = draw_figure("fig2a", root)
        got = [l.get_label() for l in figure.axes[0].get_lines()]
        want = ["TS", "FTS", "FTS-DE (P = 2)", "FTS-DE (P = 3)"]
        _check(got == want, f"fig2a labels {got} != {want}")
        plt.close(figure)

        # fig3a: privacy points at (final epsilon, 1 - final best_f) with se bars; baselines
        # at 1 - best_f. Values: error e = 0.1 + z/100 + (0.35 - q), epsilon = 10 q / z.
        pts = {}
        for q, z in dict.fromkeys([(0.35, z) for z in Z_SWEEP] + [(q, 1) for q in Q_SWEEP]):
            name = grid_name("fig3_landmine", q, z)
            err, eps = 0.1 + z / 100 + (0.35 - q), 10 * q / z
            pts[(q, z)] = (eps, err)
            _write_result(root, name, [(0, None, None, 0.5, 0.1, 0.0, 29),
                                       (60, None, None, 1 - err, 0.003, eps, 29)],
                          _config(name, p=4, q=q, z=z, s=22), delta=0.01)
        for i, name in enumerate(["landmine_ts", "landmine_fts", "landmine_fts_de"]):
            alg, p = [("ts", 1), ("fts", 1), ("fts_de", 4)][i]
            _write_result(root, name, [(60, None, None, 0.9 - 0.01 * i, 0.002, 0.0, 29)],
                          _config(name, alg, p, dp=False))
        figure = draw_figure("fig3a", root)
        ax = figure.axes[0]
        containers = ax.containers
        _check(len(containers) == 2, "fig3a: two error-bar series")
        for cont, sweep in zip(containers, [[(0.35, z) for z in Z_SWEEP],
                                            [(q, 1) for q in Q_SWEEP]]):
            line = cont.lines[0]
            _check(_close(line.get_xdata(), [pts[k][0] for k in sweep]), "fig3a: x = epsilon")
            _check(_close(line.get_ydata(), [pts[k][1] for k in sweep], 1e-12),
                   "fig3a: y = 1 - best_f")
            segs = cont.lines[2][0].get_segments()
            _check(all(abs((s[1][1] - s[0][1]) - 0.006) < 1e-12 for s in segs),
                   "fig3a: error bars = +- se")
        hlines = [l for l in ax.get_lines() if l.get_label() in ("TS", "FTS", "FTS-DE (P = 4)")]
        _check(_close(sorted(l.get_ydata()[0] for l in hlines), [0.1, 0.11, 0.12], 1e-12),
               "fig3a: baselines at 1 - best_f")
        plt.close(figure)

        # fts_fig2a: x = the floats one source sends (M, M + M^2, + 1 for TAF), y = 1 - best_f.
        def fts_config(name, alg, m, extra=""):
            return (f"name: {name}\nalgorithm: {alg}\nrff:\n  features: {m}\n"
                    f"target:\n  agents: 2\n  schedule: inv_square\n{extra}")
        err = {}
        for alg, method in (("fts_target", "fts"), ("rgpe", "rgpe"), ("taf", "taf")):
            for m in FTS_M:
                name = f"{method}_landmine_m{m}"
                err[name] = 0.1 + m / 1e4 + len(alg) / 100
                _write_result(root, name, [(50, None, None, 1 - err[name], 0.01, 0.0, 4)],
                              fts_config(name, alg, m))
        _write_result(root, "fts_landmine_ts", [(50, None, None, 0.8, 0.01, 0.0, 4)],
                      fts_config("fts_landmine_ts", "fts_target", 100).replace("inv_square", "local"))
        for alg in ("rgpe", "taf"):
            name = f"{alg}_landmine_m100_corrected"
            _write_result(root, name, [(50, None, None, 0.7, 0.01, 0.0, 4)],
                          fts_config(name, alg, 100, "ensemble:\n  variant: corrected\n"))
        figure = draw_figure("fts_fig2a", root)
        ax = figure.axes[0]
        floats = {"FTS": list(FTS_M), "RGPE": [m + m * m for m in FTS_M],
                  "TAF": [m + m * m + 1 for m in FTS_M]}
        for cont, (method, names) in zip(ax.containers[:3], FIGURES["fts_fig2a"]["series"].items()):
            line = cont.lines[0]
            _check(_close(line.get_xdata(), floats[method]), f"fts_fig2a {method}: x = floats")
            _check(_close(line.get_ydata(), [err[n] for n in names], 1e-12),
                   f"fts_fig2a {method}: y = 1 - best_f")
        _check(any(abs(l.get_ydata()[0] - 0.2) < 1e-12 for l in ax.get_lines()
                   if l.get_label().startswith("TS")), "fts_fig2a: TS line at 1 - best_f")
        plt.close(figure)
        # fts_fig3a: runs 0 and 2 have agent 0 as target (target.agents = 2); x = mean elapsed,
        # y = 1 - mean best_f of agent 0 over those runs.
        for name, alg in (("fts_landmine_ts", "fts_target"), ("fts_landmine_m100", "fts_target"),
                          ("rgpe_landmine_m100", "rgpe"), ("taf_landmine_m100", "taf")):
            d = os.path.join(root, name)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "trace.csv"), "w", encoding="utf-8") as fh:
                fh.write("run,agent,round,x0,y,f,best_f,regret,source\n")
                for run in range(4):
                    for t in range(3):
                        fh.write(f"{run},{run % 2},{t},0.5,0,0,{0.5 + 0.1 * t + 0.01 * run},,local\n")
            with open(os.path.join(d, "timing.csv"), "w", encoding="utf-8") as fh:
                fh.write("run,round,seconds,elapsed\n")
                for run in range(4):
                    for t in range(3):
                        fh.write(f"{run},{t},1,{t + 1 + run}\n")
            if name == "fts_landmine_m100" or name.startswith(("rgpe", "taf")):
                _write_result(root, name, [(2, None, None, 0.7, 0.01, 0.0, 4)],
                              fts_config(name, alg, 100))
        figure = draw_figure("fts_fig3a", root)
        line = figure.axes[0].get_lines()[0]
        _check(_close(line.get_xdata(), [2, 3, 4]), "fts_fig3a: x = mean elapsed of runs 0, 2")
        _check(_close(line.get_ydata(), [0.49, 0.39, 0.29], 1e-12),
               "fts_fig3a: y = 1 - mean best_f of target 0")
        plt.close(figure)
        # fts_fig5_t2 (target agent 1): runs 1 and 3, agent 1's rows; the same four results.
        figure = draw_figure("fts_fig5_t2", root)
        line = figure.axes[0].get_lines()[0]
        _check(_close(line.get_xdata(), [3, 4, 5]), "fts_fig5_t2: x = mean elapsed of runs 1, 3")
        _check(_close(line.get_ydata(), [0.48, 0.38, 0.28], 1e-12),
               "fts_fig5_t2: y = 1 - mean best_f of target 1")
        plt.close(figure)
        try:  # target.agents = 2: agent 2 is never the target
            draw_figure("fts_fig5_t3", root)
            _check(False, "fts_fig5_t3 should be refused")
        except ResultError as e:
            _check("agent 2 is never the target" in str(e), f"fts_fig5_t3: {e}")

        # Missing results: named, not a crash; --only expands prefixes.
        try:
            draw_figure("fig4", root)
            _check(False, "fig4 should be missing")
        except FileNotFoundError as e:
            _check(os.path.join(root, "fig4_dp_fts") in e.args[0], "missing dir named")
        _check(select("fig3,fig2a") == ["fig3a", "fig3b", "fig3c", "fig3d", "fig3e", "fig3f",
                                        "fig2a"], "--only prefix expansion")
        _check(select("fts_fig5") == [f"fts_fig5_t{k}" for k in range(2, 7)],
               "--only fts_fig5: the five target figures")
        # Resolved-config parser: nested keys, booleans, lists.
        cfg = read_resolved(os.path.join(root, "fig2c_q0.5", "config.resolved.yaml"))
        _check(cfg["server.sampling_rate"] == 0.5 and cfg["server.dp"] is True and
               cfg["exploration.weights.scheme"] == "softmax" and
               cfg["server.accountants"] == ("rdp", "pld"), f"parser: {cfg}")
        # A result without the expected columns is not drawn, named, and counted; the other
        # figures still are (the bad-input battery, tests/python/test_tools_bad_inputs.py,
        # checks every kind of bad file and the exit status).
        os.makedirs(os.path.join(root, "fig4_dp_fts"))
        with open(os.path.join(root, "fig4_dp_fts", "summary.csv"), "w", encoding="utf-8") as fh:
            fh.write("round,epsilon\n0,0\n")
        _write_result(root, "fig4_dp_fts_de", [(0, 0.2, 0.01, 0.8, 0.01, 0.0, 200)], _config("x"))
        out = os.path.join(root, "figures")
        _check(plot_all(root, out, ["fig2a", "fig4"]) == (0, 1), "fig4 unreadable: nothing")
        _check(not os.path.exists(out), "nothing written with an unreadable result")
        shutil.rmtree(os.path.join(root, "fig4_dp_fts"))
        _check(plot_all(root, out, ["fig2a", "fig4"]) == (1, 0), "fig2a drawn, fig4 missing")
        _check(all(os.path.getsize(os.path.join(out, f"fig2a.{e}")) > 0 for e in ("png", "pdf")),
               "fig2a files written")
        # Fig. 9's legend: the paper's softmax a (start - 1) and the other schemes' a.
        for name, scheme, start in (("weights_softmax", "softmax", 10),
                                    ("weights_linear", "linear", 1000)):
            config = _config(name, dp=False).replace(
                "scheme: softmax\n", f"scheme: {scheme}\n    start: {start}\n")
            _write_result(root, name, [(0, 0.2, 0.01, 0.8, 0.01, 0.0, 200)], config)
        labels = legend_labels([Curve(os.path.join(root, n))
                                for n in ("weights_softmax", "weights_linear")])
        _check(labels == ["FTS-DE (softmax weights, a = 9)", "FTS-DE (linear weights, a = 1000)"],
               f"weights legend {labels}")
        style_self_test(root, out)
    print("plot_figures: self-test passed")


def _boxes_overlap(a, b):
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def style_self_test(root, out):
    """Issue 28 sec. 5 on the self-test's results in root (fig2a, fig2c, fig3a, fts_fig2a):
    the paper scales and --log/--linear, --bare, vector PDF, --format, one colour per named
    curve across figures, and point labels that do not overlap where fixed offsets did."""
    saved = dict(STYLE)
    try:
        # Scales: simple regret on a log axis, errors and epsilon linear, FTS Fig. 2a's
        # message length on a log axis; --linear / --log switch the utility axis only.
        scales = {}
        for fig_id in ("fig2c", "fig3a", "fts_fig2a"):
            figure = draw_figure(fig_id, root)
            ax = figure.axes[0]
            scales[fig_id] = (ax.get_xscale(), ax.get_yscale())
            plt.close(figure)
        _check(scales == {"fig2c": ("linear", "log"), "fig3a": ("linear", "linear"),
                          "fts_fig2a": ("log", "linear")}, f"default scales {scales}")
        for scale in ("linear", "log"):
            STYLE["scale"] = scale
            for fig_id in ("fig2c", "fig3a", "fts_fig2a"):
                figure = draw_figure(fig_id, root)
                _check(figure.axes[0].get_yscale() == scale and
                       figure.axes[0].get_xscale() == scales[fig_id][0],
                       f"--{scale}: {fig_id} utility axis {figure.axes[0].get_yscale()}")
                plt.close(figure)
        STYLE["scale"] = None

        # Title and footnote by default; --bare leaves no text but the axes' own (labels,
        # ticks, legend).
        figure = draw_figure("fig2c", root)
        ax = figure.axes[0]
        _check(ax.get_title() == FIGURES["fig2c"]["title"] and
               any("runs: 2" in t.get_text() for t in ax.texts), "title and footnote drawn")
        plt.close(figure)
        parser = argparse.ArgumentParser()
        add_style_arguments(parser)
        set_style(parser, parser.parse_args(["--bare"]))
        for fig_id in ("fig2c", "fig3a", "fts_fig2a"):
            figure = draw_figure(fig_id, root)
            ax = figure.axes[0]
            notes = {t.get_text() for t in ax.texts}
            _check(ax.get_title() == "" and figure._suptitle is None and
                   not any("runs:" in n or "bands:" in n for n in notes),
                   f"--bare: {fig_id} has title {ax.get_title()!r} / notes {notes}")
            plt.close(figure)
        set_style(parser, parser.parse_args(["--no-footnote"]))
        figure = draw_figure("fig2c", root)
        _check(figure.axes[0].get_title() and not figure.axes[0].texts, "--no-footnote")
        plt.close(figure)
        for bad in ("jpeg", "png,", ""):
            try:
                with contextlib.redirect_stderr(io.StringIO()):  # argparse's usage message
                    set_style(parser, parser.parse_args(["--format", bad]))
                _check(bad == "png,", f"--format {bad!r} accepted")
            except SystemExit as e:
                _check(e.code == 2 and bad != "png,", f"--format {bad!r}: exit {e.code}")

        # Vector PDF (no raster image inside) and PNG by default; --format svg: SVG only.
        set_style(parser, parser.parse_args([]))
        pdf = open(os.path.join(out, "fig2a.pdf"), "rb").read()
        _check(pdf.startswith(b"%PDF-") and b"/Subtype /Image" not in pdf,
               "fig2a.pdf is a vector PDF")
        png = open(os.path.join(out, "fig2a.png"), "rb").read(8)
        _check(png == b"\x89PNG\r\n\x1a\n", "fig2a.png is a PNG")
        svg_out = os.path.join(root, "svg")
        set_style(parser, parser.parse_args(["--format", "svg"]))
        plot_all(root, svg_out, ["fig2a"])
        _check(sorted(os.listdir(svg_out)) == ["fig2a.svg"], f"--format svg: {os.listdir(svg_out)}")
        set_style(parser, parser.parse_args([]))

        # One colour per named curve: TS and FTS are the same in Fig. 2a (lines), Fig. 3a
        # (baselines) and FTS Fig. 2a (TS line); FTS-DE (P = 4) alone in Fig. 3a takes FTS-DE's.
        colours = {}
        for fig_id in ("fig2a", "fig3a", "fts_fig2a"):
            figure = draw_figure(fig_id, root)
            for line in figure.axes[0].get_lines():
                name = line.get_label().split(" (")[0]
                if name in ("TS", "FTS", "FTS-DE") and not line.get_label().startswith("_"):
                    colours.setdefault(name, {})[fig_id] = matplotlib.colors.to_hex(
                        line.get_color())
            plt.close(figure)
        _check(set(colours["TS"].values()) == {COLOURS["TS"].lower()} and
               len(colours["TS"]) == 3, f"TS colours {colours['TS']}")
        _check(set(colours["FTS"].values()) == {COLOURS["FTS"].lower()} and
               len(colours["FTS"]) == 2, f"FTS colours {colours['FTS']}")
        _check(colours["FTS-DE"]["fig3a"] == COLOURS["FTS-DE"].lower(), "FTS-DE colour")

        # Labels: Fig. 3b with its z = 2, 3, 4 points and q = 0.1 within a few points of one
        # another (as the paper's landmine points are): every label's box is clear of every
        # other and inside the axes, although fixed offsets make them collide.
        close = {(0.35, 1): (9.0, 0.20), (0.35, 1.6): (4.0, 0.21), (0.35, 2): (2.10, 0.2150),
                 (0.35, 3): (1.95, 0.2155), (0.35, 4): (2.00, 0.2145),
                 (0.1, 1): (2.05, 0.2152), (0.15, 1): (3.0, 0.212), (0.2, 1): (4.5, 0.209),
                 (0.25, 1): (6.0, 0.205)}
        for (q, z), (eps, err) in close.items():
            name = grid_name("fig3_activity", q, z)
            _write_result(root, name, [(0, None, None, 0.5, 0.1, 0.0, 30),
                                       (60, None, None, 1 - err, 0.001, eps, 30)],
                          _config(name, p=4, q=q, z=z, s=22), delta=0.01)
        for name, alg, p in (("activity_ts", "ts", 1), ("activity_fts", "fts", 1),
                             ("activity_fts_de", "fts_de", 4)):
            _write_result(root, name, [(60, None, None, 0.75, 0.002, 0.0, 30)],
                          _config(name, alg, p, dp=False))
        figure = draw_figure("fig3b", root)
        ax = figure.axes[0]
        renderer = figure.canvas.get_renderer()
        notes = [t for t in ax.texts if t.get_text().startswith(("q=", "z="))]
        _check(len(notes) == 9, f"fig3b: {len(notes)} point labels, want 9")
        boxes = [t.get_window_extent(renderer) for t in notes]
        frame = ax.get_window_extent(renderer)
        for i, a in enumerate(boxes):
            _check(frame.x0 <= a.x0 and a.x1 <= frame.x1 and frame.y0 <= a.y0 and
                   a.y1 <= frame.y1, f"fig3b: label {notes[i].get_text()} leaves the axes")
            for j in range(i):
                _check(not _boxes_overlap(a, boxes[j]), f"fig3b: labels "
                       f"{notes[i].get_text()} and {notes[j].get_text()} overlap")
        # No two leader lines cross (crossed leaders pair labels with the wrong points).
        leaders = []
        for t in notes:
            if t.arrow_patch is not None:
                (x, y), (dx, dy) = ax.transData.transform(t.xy), t.get_position()
                leaders.append(((x, y), (x + dx * figure.dpi / 72, y + dy * figure.dpi / 72)))
        for i, a in enumerate(leaders):
            for b in leaders[:i]:
                _check(not segments_cross(*a, *b), "fig3b: two leader lines cross")
        # The same labels at the old fixed offsets (z above, q below, 4 points right) collide.
        old = [ax.annotate(t.get_text(), t.xy, textcoords="offset points", fontsize=7,
                           xytext=(4, 5) if t.get_text().startswith("z") else (4, -11))
               for t in notes]
        old_boxes = [t.get_window_extent(renderer) for t in old]
        _check(any(_boxes_overlap(a, b) for i, a in enumerate(old_boxes)
                   for b in old_boxes[:i]), "fig3b: the test case does not collide")
        plt.close(figure)
        _check(segments_cross((0, 0), (2, 2), (0, 2), (2, 0)) and
               not segments_cross((0, 0), (1, 1), (0, 1), (1, 2)) and
               not segments_cross((0, 0), (1, 1), (1, 1), (2, 0)), "segments_cross")
        # The USER_GUIDE's landmine q x z sweep (2 runs a point, the pld epsilon; 2026-11-26),
        # whose q = 0.1, z = 2 and 4 points lie 0.4 apart at the same error: several leaders, none
        # crossing.
        qz = [(0.164, 0.23142, 0.0027, "z=4", "C0"), (0.549, 0.23139, 0.0012, "z=2", "C0"),
              (2.010, 0.23239, 0.0026, "z=1", "C0"), (0.502, 0.23362, 0.0004, "z=4", "C1"),
              (1.485, 0.23194, 0.0011, "z=2", "C1"), (4.986, 0.23148, 0.0022, "z=1", "C1"),
              (1.134, 0.23242, 0.0018, "z=4", "C2"), (3.230, 0.23315, 0.0028, "z=2", "C2"),
              (10.38, 0.23218, 0.0022, "z=1", "C2")]
        figure, ax = plt.subplots(figsize=(6.4, 4.2))
        for colour in ("C0", "C1", "C2"):
            pts = [p for p in qz if p[4] == colour]
            ax.errorbar([p[0] for p in pts], [p[1] for p in pts], [p[2] for p in pts],
                        marker="o", color=colour, capsize=3)
        notes = place_labels(ax, [(p[3], (p[0], p[1]), p[4]) for p in qz])
        leaders = []
        for t in notes:
            if t.arrow_patch is not None:
                (x, y), (dx, dy) = ax.transData.transform(t.xy), t.get_position()
                leaders.append(((x, y), (x + dx * figure.dpi / 72, y + dy * figure.dpi / 72)))
        _check(len(leaders) >= 2, f"q x z: {len(leaders)} leader lines, want several")
        for i, a in enumerate(leaders):
            for b in leaders[:i]:
                _check(not segments_cross(*a, *b), "q x z: two leader lines cross")
        plt.close(figure)
    finally:
        STYLE.clear()
        STYLE.update(saved)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--results", default="results", help="results root (default: results/)")
    p.add_argument("--out", default=None, help="output dir (default: <results>/figures/)")
    p.add_argument("--only", default="", help="comma-separated figure ids or prefixes "
                   "(fig2a,fig3 = fig3a-f,...)")
    p.add_argument("--list", action="store_true", help="print each figure's result names")
    p.add_argument("--rounds", type=int, default=40,
                   help="iterations shown by the synthetic figures (default: the paper's 40)")
    add_style_arguments(p)
    p.add_argument("--self-test", action="store_true", help="check the drawing on known data")
    a = p.parse_args()
    if a.self_test:
        self_test()
        return 0
    if a.rounds < 0:
        p.error(f"--rounds must be >= 0, got {a.rounds}")
    VIEW.update(rounds=a.rounds)
    set_style(p, a)
    try:
        ids = select(a.only)
    except ValueError as e:
        p.error(str(e))
    if a.list:
        for f in ids:
            print(f"{f}: {' '.join(dict.fromkeys(expected_names(FIGURES[f])))}")
        return 0
    if not os.path.isdir(a.results):
        print(f"plot_figures: --results {a.results}: no such directory", file=sys.stderr)
        return 1
    out = a.out or os.path.join(a.results, "figures")
    try:
        drawn, unreadable = plot_all(a.results, out, ids)
    except ResultError as e:
        print(f"plot_figures: {e}", file=sys.stderr)
        return 1
    return 0 if drawn > 0 and unreadable == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
