#!/usr/bin/python3
"""Plots any fbosim results: run directories (`fbosim run --out DIR`) or sweeps (`fbosim sweep
--out DIR`, expanded into their points).

    tools/plot_results.py DIR [DIR ...] [--where KEY=VALUE ...] [--out STEM] [--title TEXT]
                          [--label TEXT ... | --name-labels]
    tools/plot_results.py SWEEP --vs-epsilon [--series KEY] [--accountant A] [--out STEM]
    tools/plot_results.py DIR [DIR ...] --vs-time [--out STEM]
    (both also take --log | --linear, --log-epsilon | --linear-epsilon, --size WxH,
    --legend PLACE, --no-title, --no-footnote, --bare, --format png,pdf,svg)

Without --vs-epsilon: utility against iterations, one line with its standard-error band per
result (the mean and s.e. of summary.csv), labelled by the config keys in which the results
differ (a sweep's swept keys, or the algorithms' names; keys that cannot change a result,
such as name, seed, objective.workers, are left out), or --label's texts (one per result, in
order) or --name-labels' config names. One method's sweep points take the colour of their
first varying key's value (the same value the same colour in every figure drawn from the same
results) and the line style and marker of the second's. With --vs-epsilon: the utility after
the last iteration (+- s.e.) against the privacy loss after it, one point per result; --series
KEY joins the points that share KEY's value (e.g. --series server.sampling_rate for a q x z
grid: one line per q along z). --accountant reads that accountant's column (epsilon_<name>,
recorded with `--accountants`); the default is each config's server.accountant. --where keeps
the results whose resolved config has KEY = VALUE. Utility is simple regret where the optimum
is known (synthetic families; log axis by default), else the best validation or test error
1 - score (linear axis); --log / --linear choose. Writes STEM.png and STEM.pdf (--format;
default: DIR/<DIR's name>_<rounds|epsilon> for the first input DIR: a figure lies beside the
results it draws, never in the checkout's tracked results/figures/).

With --vs-time (results of a schedule.kind other than rounds, docs/TIME.md): two panels, the
mean regret (+- s.e. band) of summary_time.csv against simulated time (1 - the best value where
the optimum is unknown), and the agents'
epsilon against time from agents_time.csv (at each grid instant the largest, the median and
the 90th percentile over the agents, each the largest over the runs), or for results without
it from agents.csv (per row of it: the same quantiles at the runs' mean instant of that row);
default STEM: DIR/<DIR's name>_time.

Every input is read in full and checked before anything is drawn (tools/fbosim_results.py): a
missing or damaged config.resolved.yaml or summary.csv, a NaN or inf where fbosim writes a
number, a sweep.csv row whose dir is absolute or points outside the sweep, a non-private result
given to --vs-epsilon, an --accountant or --series the results do not have, or an output that
cannot be written is an error naming the file (line, column, value), exit 1, and nothing is
written (the PNG and PDF go to temporary names and are renamed when both are complete). An
empty standard error (one run) draws no band or bar. Usage errors exit 2.

Uses Debian's python3-matplotlib, python3-pandas and python3-yaml (re-runs itself with
/usr/bin/python3 when the python3 it was started with lacks them).
"""
import argparse
import os
import sys

try:
    import matplotlib  # noqa: F401
    import pandas  # noqa: F401
    import yaml  # noqa: F401
except ImportError as missing:
    debian = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(debian) and os.access(debian, os.X_OK):
        os.execv(debian, [debian] + sys.argv)
    sys.exit(f"plot_results: {missing}; install Debian's python3-matplotlib, python3-pandas and "
             "python3-yaml (tools/setup.sh does) and run it with /usr/bin/python3")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fbosim_plots import (COLOURS, IGNORED, LINESTYLES, MARKERS, STYLE,  # noqa: E402
                          SYMBOLS, VARIANT_COLOURS, Curve, add_style_arguments, draw_rounds,
                          draw_vs_epsilon, figure_size, finish_axes, legend_labels, method_name,
                          plt, save, set_style, set_title, value_ranks)
from fbosim_results import ResultError, Table, check_output_stem, inside  # noqa: E402


def expand(path):
    """A result directory, or a sweep's points in sweep.csv order (each row's `dir`, which must
    name a directory inside the sweep)."""
    sweep = os.path.join(path, "sweep.csv")
    if os.path.exists(sweep):
        table = Table(sweep, ("point", "dir"))
        table.number("point", lo=0, integer=True)
        return [inside(path, d, f"{sweep}: line {line}, column 'dir'")
                for d, line in zip(table.text("dir"), table.lines)]
    if os.path.exists(os.path.join(path, "summary.csv")):
        return [path]
    if not os.path.exists(path):
        raise ResultError(f"{path}: no such directory")
    raise ResultError(f"{path}: neither a result directory (summary.csv) nor a sweep "
                      "(sweep.csv)")


def matches(curve, where):
    for cond in where:
        key, _, value = cond.partition("=")
        got = curve.get(key)
        if got is None or (str(got).lower() != value.lower() and
                           not _same_number(got, value)):
            return False
    return True


def _same_number(got, value):
    try:
        return float(got) == float(value)
    except (TypeError, ValueError):
        return False


def plot(paths, vs_epsilon=False, series=None, accountant=None, where=(), title=None, out=None,
         labels=None):
    """Draws the figure and returns the PNG's path; ResultError naming the file for any input
    it cannot use (read in full before anything is drawn or written). labels (the iterations
    plot; fbosim.plot): the legend's text, a list with one label per result in order, a dict
    {result directory name: label} replacing the generated labels of those it names, or "name"
    (each result's config name)."""
    first = os.path.normpath(paths[0])
    suffix = "_time" if vs_epsilon == "time" else ("_epsilon" if vs_epsilon else "_rounds")
    stem = out or os.path.join(first, os.path.basename(os.path.abspath(first)) + suffix)
    check_output_stem(stem)
    if vs_epsilon == "time":
        return save(draw_vs_time(paths, where, title, labels), stem)
    figure = draw(paths, vs_epsilon, series, accountant, where, title, labels)
    return save(figure, stem)


def draw(paths, vs_epsilon=False, series=None, accountant=None, where=(), title=None,
         labels=None):
    """plot's figure, drawn and not saved (the caller closes it)."""
    dirs = [d for p in paths for d in expand(p)]
    every = [Curve(d) for d in dirs]
    curves = [c for c in every if matches(c, where)]
    if not curves:
        raise ResultError("no result left after --where " + " ".join(where))
    if labels == "name":
        labels = [str(c.get("name", c.name)) for c in curves]
    figure, ax = plt.subplots(figsize=figure_size((6.4, 4.4)))
    try:
        if vs_epsilon:
            draw_vs_epsilon(ax, curves, series, accountant,
                            ranks=value_ranks(every, series) if series else None)
        else:
            draw_rounds(ax, curves, labels=given_labels(curves, labels),
                        styles=swept_styles(every, curves))
    except BaseException:
        plt.close(figure)
        raise
    set_title(ax, title)
    finish_axes(ax)
    return figure


def time_tables(directory):
    """summary_time.csv's columns and agents.csv's per-row epsilon quantiles of one result
    (ResultError naming the file for a result without them: a rounds schedule's)."""
    path = os.path.join(directory, "summary_time.csv")
    if not os.path.exists(path):
        raise ResultError(f"{path}: no such file (--vs-time draws results of a schedule.kind "
                          "other than rounds)")
    grid = Table(path, ("time", "mean_regret", "se_regret", "mean_best_f", "se_best_f", "n"))
    time = grid.number("time", lo=0)
    regret = grid.number("mean_regret", empty="allowed")
    se = grid.number("se_regret", empty="allowed")
    kind = "regret"
    if not np.isfinite(regret).any():  # no known optimum (real-world data): the error
        regret = 1 - grid.number("mean_best_f", empty="allowed")
        se = grid.number("se_best_f", empty="allowed")
        kind = "error"
    on_grid = os.path.join(directory, "agents_time.csv")
    if os.path.exists(on_grid):  # the quantiles on summary_time.csv's grid, per run
        table = Table(on_grid, ("run", "time", "epsilon_max", "epsilon_median", "epsilon_p90"))
        frame = pd.DataFrame({"time": table.number("time", lo=0),
                              "max": table.number("epsilon_max", lo=0),
                              "median": table.number("epsilon_median", lo=0),
                              "p90": table.number("epsilon_p90", lo=0)})
        quantiles = frame.groupby("time", sort=True).max().reset_index()
        return {"time": time, "regret": regret, "se": se, "kind": kind}, quantiles
    agents = Table(os.path.join(directory, "agents.csv"), ("run", "round", "time", "agent",
                                                            "epsilon"))
    frame = pd.DataFrame({"run": agents.number("run", lo=0, integer=True),
                          "round": agents.number("round", lo=0, integer=True),
                          "time": agents.number("time", lo=0),
                          "epsilon": agents.number("epsilon", lo=0)})
    per_run = frame.groupby(["round", "run"]).agg(
        time=("time", "first"), median=("epsilon", "median"),
        p90=("epsilon", lambda e: e.quantile(0.9)), max=("epsilon", "max")).reset_index()
    quantiles = per_run.groupby("round").agg(time=("time", "mean"), median=("median", "max"),
                                             p90=("p90", "max"), max=("max", "max"))
    return {"time": time, "regret": regret, "se": se, "kind": kind}, quantiles


def draw_vs_time(paths, where=(), title=None, labels=None):
    """The --vs-time figure, drawn and not saved (the caller closes it)."""
    dirs = [d for p in paths for d in expand(p)]
    curves = [c for c in (Curve(d) for d in dirs) if matches(c, where)]
    if not curves:
        raise ResultError("no result left after --where " + " ".join(where))
    tables = [time_tables(c.directory) for c in curves]
    if labels == "name":
        labels = [str(c.get("name", c.name)) for c in curves]
    names = given_labels(curves, labels) or legend_labels(curves)
    w, h = figure_size((11.0, 4.4))
    figure, (left, right) = plt.subplots(1, 2, figsize=(w, h))
    for i, ((grid, quantiles), name) in enumerate(zip(tables, names)):
        colour = VARIANT_COLOURS[i % len(VARIANT_COLOURS)]
        left.plot(grid["time"], grid["regret"], color=colour, label=name)
        band = np.isfinite(grid["se"])
        if band.any():
            left.fill_between(grid["time"][band], (grid["regret"] - grid["se"])[band],
                              (grid["regret"] + grid["se"])[band], color=colour, alpha=0.2)
        if not (quantiles["max"] > 0).any():  # nothing private released: no epsilon to draw
            continue
        for column, style in (("max", "-"), ("p90", "--"), ("median", ":")):
            right.plot(quantiles["time"], quantiles[column], color=colour, linestyle=style,
                       label=f"{name}: {column}" if column != "max" else f"{name}: largest")
    left.set_xlabel("simulated time (s)")
    left.set_ylabel("simple regret (mean over agents and runs)" if tables[0][0]["kind"] ==
                    "regret" else "1 - best value (mean over agents and runs)")
    right.set_xlabel("simulated time (s)")
    right.set_ylabel("per-agent epsilon (over agents; largest over runs)")
    set_title(left, title)
    left.legend(fontsize=8)
    right.legend(fontsize=7)
    return figure


def swept_keys(curves):
    """The config keys whose values differ among curves (not the IGNORED ones), in the
    legend's order (the paper's symbols first)."""
    order = list(SYMBOLS)  # the paper's order (P, S, q, z, ...), then the rest alphabetically
    keys = sorted({k for c in curves for k in c.config} - IGNORED,
                  key=lambda k: (order.index(k) if k in order else len(order), k))
    return [k for k in keys if len({repr(c.get(k)) for c in curves}) > 1]


def swept_styles(every, curves):
    """[(colour, linestyle, marker)] per curve when the curves are one method's points of a
    sweep (None otherwise: curve_colours' method colours): the colour is the rank of the value
    of the first key that varies among the curves drawn, among that key's values in every
    result given (before --where), so that one value has one colour in all the figures of a
    sweep (and --vs-epsilon --series KEY gives it the same; a lone curve of a sweep takes
    the colour of its value of the sweep's first varying key); the line style and marker follow
    the second varying key's value (or the same one), so that the curves stay apart in
    greyscale."""
    if len(every) < 2 or len({method_name(c) for c in curves}) > 1:
        return None
    keys = swept_keys(curves) or swept_keys(every)
    if not keys:
        return None
    first = value_ranks(every, keys[0])
    second = value_ranks(every, keys[1]) if len(keys) > 1 else first
    out = []
    for c in curves:
        a, b = first[c.get(keys[0])], second[c.get(keys[1] if len(keys) > 1 else keys[0])]
        out.append((VARIANT_COLOURS[a % len(VARIANT_COLOURS)], LINESTYLES[b % len(LINESTYLES)],
                    MARKERS[b % len(MARKERS)]))
    return out


def given_labels(curves, labels):
    """The legend's labels: the generated ones (None), a list of one per curve, or the generated
    ones with a dict's {directory name: label} in place; ResultError when they do not fit."""
    if labels is None:
        return None
    if isinstance(labels, dict):
        names = [c.name for c in curves]
        unknown = sorted(set(labels) - set(names))
        if unknown:
            raise ResultError(f"labels name no result: {', '.join(map(str, unknown))} (the "
                              f"results: {', '.join(names)})")
        return [labels.get(c.name, generated) for c, generated in
                zip(curves, legend_labels(curves))]
    labels = [str(label) for label in labels]
    if len(labels) != len(curves):
        raise ResultError(f"{len(labels)} label(s) for {len(curves)} result(s) "
                          f"({', '.join(c.name for c in curves)})")
    return labels


def self_test():
    """A fake sweep of 4 points (q in {0.1, 0.35} x z in {1, 2}) with known summaries: the lines
    and bands, the vs-epsilon points and series, --where and the corner must show them."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        sweep = os.path.join(root, "sw")
        rows = []
        for i, (q, z) in enumerate([(0.1, 1), (0.1, 2), (0.35, 1), (0.35, 2)]):
            name = f"server.sampling_rate={q},server.noise_multiplier={z}"
            d = os.path.join(sweep, name)
            os.makedirs(d)
            err = 0.1 + q / 10 + z / 100  # best_f = 1 - err at the last round
            eps = 10 * q / z
            with open(os.path.join(d, "summary.csv"), "w", encoding="utf-8") as fh:
                fh.write("round,mean_regret,se_regret,mean_best_f,se_best_f,epsilon,delta,n,"
                         "epsilon_pld\n")
                for t in range(3):
                    fh.write(f"{t},,,{1 - err - 0.1 * (2 - t)},0.01,{eps * t / 2},0.02,58,"
                             f"{eps * t / 4}\n")
            with open(os.path.join(d, "config.resolved.yaml"), "w", encoding="utf-8") as fh:
                fh.write(f"name: lm\nalgorithm: dp_fts_de\nruns: 2\nrounds: 2\n"
                         f"objective:\n  family: landmine\n"
                         f"exploration:\n  subregions: 4\nserver:\n  dp: true\n"
                         f"  sampling_rate: {q}\n  noise_multiplier: {z}\n  accountant: moments\n")
            rows.append(f'{i},{q},{z},"{name}"')
        with open(os.path.join(sweep, "sweep.csv"), "w", encoding="utf-8") as fh:
            fh.write("point,server.sampling_rate,server.noise_multiplier,dir\n" + "\n".join(rows))
        checks = []
        png = plot([sweep], out=os.path.join(root, "r"), where=["server.noise_multiplier=1"])
        fig_ok = os.path.getsize(png) > 0 and os.path.getsize(png[:-3] + "pdf") > 0
        checks.append(("files written", fig_ok))
        # Issue 28: without --out, the figure lies in the results directory it draws (never in
        # the checkout's results/figures/), from any working directory.
        cwd = os.getcwd()
        try:
            os.chdir(root)
            png = plot([os.path.relpath(sweep, root)], vs_epsilon=True, series="server.sampling_rate")
        finally:
            os.chdir(cwd)
        want = os.path.join(sweep, os.path.basename(sweep) + "_epsilon.png")
        checks.append(("default output in the results directory",
                       os.path.samefile(os.path.join(root, png), want) and
                       os.path.exists(want[:-3] + "pdf")))
        # Re-draw without saving to inspect the axes.
        curves = [Curve(d) for d in expand(sweep)]
        figure, ax = plt.subplots()
        draw_rounds(ax, [c for c in curves if matches(c, ["server.noise_multiplier=1"])])
        lines = ax.get_lines()
        checks.append(("one line per kept point", len(lines) == 2))
        checks.append(("y = 1 - mean_best_f", abs(lines[0].get_ydata()[-1] - 0.12) < 1e-12))
        checks.append(("labels name q", [l.get_label() for l in lines] ==
                       ["DP-FTS-DE (q = 0.1)", "DP-FTS-DE (q = 0.35)"]))
        checks.append(("y label names AUC", "AUC" in ax.get_ylabel()))
        checks.append(("corner", "runs: 2" in ax.texts[0].get_text() and "58" in ax.texts[0].get_text()))
        checks.append(("integer ticks", all(float(t).is_integer() for t in ax.get_xticks())))
        plt.close(figure)
        figure, ax = plt.subplots()
        draw_vs_epsilon(ax, curves, "server.sampling_rate", "pld")
        series = [c.lines[0] for c in ax.containers]
        want_x = {0.1: [0.5 * 10 * 0.1 / 2, 0.5 * 10 * 0.1 / 1],
                  0.35: [0.5 * 10 * 0.35 / 2, 0.5 * 10 * 0.35 / 1]}
        checks.append(("two series", len(series) == 2))
        for line, q in zip(series, (0.1, 0.35)):
            checks.append((f"x = pld epsilon, q = {q}",
                           all(abs(a - b) < 1e-12 for a, b in zip(line.get_xdata(), want_x[q]))))
            checks.append((f"y = final error, q = {q}",
                           all(abs(a - b) < 1e-12 for a, b in
                               zip(line.get_ydata(), [0.1 + q / 10 + 0.02, 0.1 + q / 10 + 0.01]))))
        # Issue 28 sec. 5: the point labels do not overlap; a lone DP-FTS-DE curve has the
        # colour it has in every figure; error on a linear axis unless --log; --bare drops the
        # --title and the footnote.
        renderer = figure.canvas.get_renderer()
        boxes = [t.get_window_extent(renderer) for t in ax.texts if t.get_text().startswith("z=")]
        checks.append(("four point labels", len(boxes) == 4))
        checks.append(("labels apart", not any(
            a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1
            for i, a in enumerate(boxes) for b in boxes[:i])))
        plt.close(figure)
        figure, ax = plt.subplots()
        draw_rounds(ax, [c for c in curves if matches(c, ["server.sampling_rate=0.1",
                                                          "server.noise_multiplier=1"])])
        checks.append(("DP-FTS-DE's colour", ax.get_lines()[0].get_color() == COLOURS["DP-FTS-DE"]))
        checks.append(("error axis linear", ax.get_yscale() == "linear"))
        plt.close(figure)
        parser = argparse.ArgumentParser()
        add_style_arguments(parser)
        saved = dict(STYLE)
        try:
            set_style(parser, parser.parse_args(["--bare", "--log", "--format", "pdf"]))
            pdf = plot([sweep], out=os.path.join(root, "bare"), title="a title")
            checks.append(("--format pdf: the PDF alone", pdf.endswith(".pdf") and
                           sorted(f for f in os.listdir(root) if f.startswith("bare")) ==
                           ["bare.pdf"] and open(pdf, "rb").read(5) == b"%PDF-"))
            figure, ax = plt.subplots()
            draw_rounds(ax, curves)
            set_title(ax, "a title")
            checks.append(("--bare: no title, no footnote", ax.get_title() == "" and not ax.texts))
            checks.append(("--log", ax.get_yscale() == "log"))
            plt.close(figure)
        finally:
            STYLE.update(saved)
        figures_checks(root, sweep, checks)
        time_checks(root, checks)
    failed = [what for what, ok in checks if not ok]
    print("plot_results self-test: " + ("ok" if not failed else "FAILED: " + ", ".join(failed)))
    return 1 if failed else 0


def time_checks(root, checks):
    """--vs-time on a fake buffered result: the regret line is summary_time.csv's, the
    epsilon quantiles are agents.csv's (worked by hand)."""
    d = os.path.join(root, "timed")
    os.makedirs(d)
    with open(os.path.join(d, "summary.csv"), "w", encoding="utf-8") as fh:
        fh.write("round,mean_regret,se_regret,mean_best_f,se_best_f,epsilon,delta,n\n"
                 "0,2,0.1,0,0.1,0,1e-5,8\n1,1,0.1,1,0.1,1,1e-5,8\n")
    with open(os.path.join(d, "config.resolved.yaml"), "w", encoding="utf-8") as fh:
        fh.write("name: timed\nalgorithm: dp_fts_de\nruns: 2\nrounds: 1\nobjective:\n"
                 "  family: gp_grid\nschedule:\n  kind: buffered\n")
    with open(os.path.join(d, "summary_time.csv"), "w", encoding="utf-8") as fh:
        fh.write("time,mean_regret,se_regret,mean_best_f,se_best_f,n\n"
                 "0,,,,,0\n1.5,2,0.5,0,0.1,8\n3,1,,1,,8\n")
    with open(os.path.join(d, "agents.csv"), "w", encoding="utf-8") as fh:
        fh.write("run,round,time,agent,epsilon\n")
        for run, t in ((0, 1.0), (1, 2.0)):  # round 0 of run 0 at 1 s, of run 1 at 2 s
            for agent in range(4):
                fh.write(f"{run},0,{t},{agent},{agent + run}\n")
    figure = draw_vs_time([d])
    left, right = figure.axes
    line = left.get_lines()[0]
    checks.append(("--vs-time: regret against time",
                   list(line.get_xdata()) == [0, 1.5, 3] and
                   list(line.get_ydata())[1:] == [2, 1]))
    got = {l.get_label().split(": ")[1]: (list(l.get_xdata()), list(l.get_ydata()))
           for l in right.get_lines()}
    # Run 1's agents have 1..4: median 2.5, 90th percentile 3.7, largest 4; mean instant 1.5.
    checks.append(("--vs-time: epsilon quantiles",
                   sorted(got) == ["largest", "median", "p90"] and
                   all(got[k][0] == [1.5] for k in got) and got["largest"][1] == [4.0] and
                   got["median"][1] == [2.5] and abs(got["p90"][1][0] - 3.7) < 1e-12))
    plt.close(figure)
    # With agents_time.csv: its quantiles at each grid instant, the largest over the runs.
    with open(os.path.join(d, "agents_time.csv"), "w", encoding="utf-8") as fh:
        fh.write("run,time,epsilon_max,epsilon_median,epsilon_p90\n"
                 "0,0,0,0,0\n0,1.5,3,1,2\n0,3,5,2,4\n1,0,0,0,0\n1,1.5,1,1.5,1\n1,3,6,1,3\n")
    figure = draw_vs_time([d])
    got = {l.get_label().split(": ")[1]: (list(l.get_xdata()), list(l.get_ydata()))
           for l in figure.axes[1].get_lines()}
    checks.append(("--vs-time: epsilon quantiles from agents_time.csv",
                   sorted(got) == ["largest", "median", "p90"] and
                   all(got[k][0] == [0, 1.5, 3] for k in got) and
                   got["largest"][1] == [0, 3, 6] and got["median"][1] == [0, 1.5, 2] and
                   got["p90"][1] == [0, 2, 4]))
    plt.close(figure)
    try:
        draw_vs_time([expand(os.path.join(root, "sw"))[0]])
        checks.append(("--vs-time of a rounds result: an error", False))
    except ResultError as e:
        checks.append(("--vs-time of a rounds result: an error", "summary_time.csv" in str(e)))


def fake_result(d, lines, config):
    """A result directory with summary.csv rows `lines` (round, mean_best_f, epsilon) and the
    config's text."""
    os.makedirs(d)
    with open(os.path.join(d, "summary.csv"), "w", encoding="utf-8") as fh:
        fh.write("round,mean_regret,se_regret,mean_best_f,se_best_f,epsilon,delta,n\n")
        for t, f, se, eps in lines:
            fh.write(f"{t},,,{f},{se},{eps},0.02,10\n")
    with open(os.path.join(d, "config.resolved.yaml"), "w", encoding="utf-8") as fh:
        fh.write(config)


def figures_checks(root, sweep, checks):
    """Figures a reviewer accepts (docs/FIGURES.md): --label and --name-labels, keys that
    cannot matter left out of labels, the log epsilon axis, one colour per swept value across
    the figures of a sweep, line styles and markers for greyscale, --size, --legend, and the
    footnote saying what the bands or error bars are."""
    import matplotlib.colors as mc
    p = parser()
    saved = dict(STYLE)

    def styled(*argv):
        a = p.parse_args([sweep, *argv])
        set_style(p, a)
        check_arguments(p, a)
        return a

    def legend(ax):
        got = ax.get_legend()
        return [t.get_text() for t in got.get_texts()] if got else []

    def close(figure):
        plt.close(figure)

    try:
        a = styled("--where", "server.noise_multiplier=1", "--label", "small q", "--label",
                   "large q")
        figure = draw(a.inputs, where=a.where, labels=a.label)
        checks.append(("--label", legend(figure.axes[0]) == ["small q", "large q"]))
        close(figure)
        figure = draw([sweep], where=["server.noise_multiplier=1"], labels="name")
        checks.append(("--name-labels", legend(figure.axes[0]) == ["lm", "lm"]))
        close(figure)
        # Keys that cannot change a result are left out; replicates differ by their seed.
        reps = []
        for i, (seed, workers) in enumerate([(1, 0), (2, 4)]):
            reps.append(os.path.join(root, f"rep{i}"))
            fake_result(reps[-1], [(0, 0.5, 0.1, 0), (1, 0.6, 0.1, 1)],
                        f"name: rep{i}\nalgorithm: ts\nruns: 3\nrounds: 1\nseed: {seed}\n"
                        f"objective:\n  family: landmine\n  workers: {workers}\n"
                        "  timeout: 5\nstandard_error: runs\n")
        figure = draw(reps)
        checks.append(("ignored keys, seeds", legend(figure.axes[0]) ==
                       ["TS (seed = 1)", "TS (seed = 2)"]))
        ax = figure.axes[0]
        checks.append(("footnote: bands over 3 runs",
                       "bands: \u00b11 s.e. over 3 runs" in ax.texts[-1].get_text()))
        close(figure)
        one = os.path.join(root, "one")
        fake_result(one, [(0, 0.5, "", 0), (1, 0.6, "", 1)],
                    "algorithm: ts\nruns: 1\nrounds: 1\nobjective:\n  family: landmine\n")
        figure = draw([one])
        checks.append(("footnote: one run", "no bands (1 run)" in figure.axes[0].texts[-1]
                       .get_text()))
        close(figure)
        # Epsilon: 0.25 .. 1.75 (a factor 7) linear; --log-epsilon forces log; a sweep whose
        # epsilons span 20x gets a log axis by itself.
        styled()
        figure = draw([sweep], vs_epsilon=True, series="server.sampling_rate")
        ax = figure.axes[0]
        checks.append(("epsilon within a decade: linear", ax.get_xscale() == "linear"))
        checks.append(("footnote: error bars", "error bars: \u00b11 s.e. over 2 runs" in
                       ax.texts[-1].get_text()))
        q_colour = {c.get_label(): mc.to_hex(c.lines[0].get_color()) for c in ax.containers}
        close(figure)
        styled("--log-epsilon")
        figure = draw([sweep], vs_epsilon=True)
        checks.append(("--log-epsilon", figure.axes[0].get_xscale() == "log"))
        close(figure)
        wide = os.path.join(root, "wide")
        for z in (1, 20):
            fake_result(os.path.join(wide, f"z{z}"), [(0, 0.5, 0.01, 0), (1, 0.6, 0.01, 2 / z)],
                        f"algorithm: dp_fts_de\nruns: 2\nrounds: 1\nobjective:\n  family: "
                        f"landmine\nserver:\n  noise_multiplier: {z}\n")
        styled()
        figure = draw([os.path.join(wide, "z1"), os.path.join(wide, "z20")], vs_epsilon=True)
        checks.append(("epsilon over a decade: log", figure.axes[0].get_xscale() == "log"))
        close(figure)
        styled("--linear-epsilon")
        figure = draw([os.path.join(wide, "z1"), os.path.join(wide, "z20")], vs_epsilon=True)
        checks.append(("--linear-epsilon", figure.axes[0].get_xscale() == "linear"))
        close(figure)
        # One colour per value of q in every figure of the sweep: the rounds plots at z = 1
        # and at z = 2, the lone point q = 0.35, z = 1, and the vs-epsilon series.
        styled()
        colour = {}
        for where in (["server.noise_multiplier=1"], ["server.noise_multiplier=2"],
                      ["server.noise_multiplier=1", "server.sampling_rate=0.35"]):
            figure = draw([sweep], where=where)
            for line, text in zip(figure.axes[0].get_lines(), legend(figure.axes[0])):
                q = "0.35" if "0.35" in text or len(where) == 2 else "0.1"
                colour.setdefault(q, set()).add(mc.to_hex(line.get_color()))
            close(figure)
        checks.append(("one colour per q", colour == {
            "0.1": {q_colour["q = 0.1"]}, "0.35": {q_colour["q = 0.35"]}} and
            q_colour["q = 0.1"] != q_colour["q = 0.35"]))
        # Greyscale: the curves of a sweep differ by line style and marker too.
        figure = draw([sweep])
        looks = {(str(l.get_linestyle()), l.get_marker()) for l in figure.axes[0].get_lines()}
        checks.append(("line styles and markers", len(looks) == 2))  # by z (the second key)
        close(figure)
        # --size and --legend.
        styled("--size", "3x2.5", "--legend", "none")
        figure = draw([sweep])
        checks.append(("--size", tuple(figure.get_size_inches()) == (3.0, 2.5)))
        checks.append(("--legend none", figure.axes[0].get_legend() is None))
        close(figure)
        styled("--legend", "upper right")
        figure = draw([sweep])
        figure.canvas.draw()
        box = figure.axes[0].get_legend().get_window_extent()
        frame = figure.axes[0].get_window_extent()
        checks.append(("--legend upper right: inside the axes",
                       frame.x0 <= box.x0 and box.x1 <= frame.x1 + 1 and box.y1 <= frame.y1 + 1))
        close(figure)
        usage = []
        for argv in (["--size", "3"], ["--size", "0x2"], ["--legend", "left"],
                     ["--log-epsilon", "--linear-epsilon"],
                     ["--vs-epsilon", "--label", "a"]):
            try:
                import contextlib
                import io
                with contextlib.redirect_stderr(io.StringIO()):
                    styled(*argv)
                usage.append(0)
            except SystemExit as e:
                usage.append(e.code)
        checks.append(("usage errors exit 2", usage == [2] * 5))
    finally:
        STYLE.clear()
        STYLE.update(saved)


def main():
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    p = parser()
    a = p.parse_args()
    set_style(p, a)
    check_arguments(p, a)
    try:
        png = plot(a.inputs, "time" if a.vs_time else a.vs_epsilon, a.series, a.accountant,
                   a.where, a.title, a.out,
                   labels="name" if a.name_labels else a.label)
    except ResultError as e:
        sys.exit(f"plot_results: {e}")
    others = [f for f in STYLE["formats"][1:]]
    print(f"plot_results: wrote {png}" + "".join(f" and its .{f}" for f in others))


def parser():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", help="result directories or sweep directories")
    p.add_argument("--vs-epsilon", action="store_true",
                   help="final utility against the final epsilon (one point per result)")
    p.add_argument("--vs-time", action="store_true",
                   help="regret and per-agent epsilon against simulated time (summary_time.csv, "
                   "agents.csv: a schedule.kind other than rounds)")
    p.add_argument("--series", help="with --vs-epsilon: join the points sharing this key's value")
    p.add_argument("--accountant", help="with --vs-epsilon: whose epsilon (default: each config's)")
    p.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                   help="keep the results whose resolved config has this value (repeatable)")
    p.add_argument("--title", help="the figure's title (none by default; --no-title drops it)")
    p.add_argument("--out", help="output stem (STEM.png, STEM.pdf; see --format)")
    p.add_argument("--label", action="append", metavar="TEXT",
                   help="the legend's text for the next result, in order (one per result, a "
                   "sweep's points in sweep.csv order; without --vs-epsilon)")
    p.add_argument("--name-labels", action="store_true",
                   help="label each result by its config's name (fbosim run --set name=...)")
    add_style_arguments(p)
    return p


def check_arguments(p, a):
    """Usage errors (exit 2) the parser cannot see alone."""
    for cond in a.where:
        key, eq, _ = cond.partition("=")
        if not eq or not key.strip():
            p.error(f"--where takes KEY=VALUE, got '{cond}'")
    if a.vs_time and a.vs_epsilon:
        p.error("--vs-time and --vs-epsilon exclude each other")
    if (a.series or a.accountant) and not a.vs_epsilon:
        p.error("--series and --accountant go with --vs-epsilon")
    if (a.label or a.name_labels) and a.vs_epsilon:
        p.error("--label and --name-labels go with the iterations plot (--vs-epsilon labels "
                "its series by --series' values)")
    if a.label and a.name_labels:
        p.error("--label and --name-labels exclude each other")


if __name__ == "__main__":
    main()
