#!/usr/bin/python3
"""Plots any fbosim results: run directories (`fbosim run --out DIR`) or sweeps (`fbosim sweep
--out DIR`, expanded into their points).

    tools/plot_results.py DIR [DIR ...] [--where KEY=VALUE ...] [--out STEM] [--title TEXT]
    tools/plot_results.py SWEEP --vs-epsilon [--series KEY] [--accountant A] [--out STEM]
    (both also take --log | --linear, --no-title, --no-footnote, --bare, --format png,pdf,svg)

Without --vs-epsilon: utility against iterations, one line with its standard-error band per
result (the mean and s.e. of summary.csv), labelled by the config keys in which the results
differ (a sweep's swept keys, or the algorithms' names). With --vs-epsilon: the utility after
the last iteration (+- s.e.) against the privacy loss after it, one point per result; --series
KEY joins the points that share KEY's value (e.g. --series server.sampling_rate for a q x z
grid: one line per q along z). --accountant reads that accountant's column (epsilon_<name>,
recorded with `--accountants`); the default is each config's server.accountant. --where keeps
the results whose resolved config has KEY = VALUE. Utility is simple regret where the optimum
is known (synthetic families; log axis by default), else the best validation or test error
1 - score (linear axis); --log / --linear choose. Writes STEM.png and STEM.pdf (--format;
default: DIR/<DIR's name>_<rounds|epsilon> for the first input DIR: a figure lies beside the
results it draws, never in the checkout's tracked results/figures/).

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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fbosim_plots import (COLOURS, STYLE, Curve, add_style_arguments, draw_rounds,  # noqa: E402
                          draw_vs_epsilon, finish_axes, legend_labels, plt, save, set_style,
                          set_title)
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
    plot; fbosim.plot): the legend's text, a list with one label per result in order, or a dict
    {result directory name: label} replacing the generated labels of those it names."""
    first = os.path.normpath(paths[0])
    stem = out or os.path.join(first, os.path.basename(os.path.abspath(first)) +
                               ("_epsilon" if vs_epsilon else "_rounds"))
    check_output_stem(stem)
    dirs = [d for p in paths for d in expand(p)]
    curves = [Curve(d) for d in dirs]
    curves = [c for c in curves if matches(c, where)]
    if not curves:
        raise ResultError("no result left after --where " + " ".join(where))
    figure, ax = plt.subplots(figsize=(6.4, 4.4))
    try:
        if vs_epsilon:
            draw_vs_epsilon(ax, curves, series, accountant)
        else:
            draw_rounds(ax, curves, labels=given_labels(curves, labels))
    except BaseException:
        plt.close(figure)
        raise
    set_title(ax, title)
    finish_axes(ax)
    return save(figure, stem)


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
    failed = [what for what, ok in checks if not ok]
    print("plot_results self-test: " + ("ok" if not failed else "FAILED: " + ", ".join(failed)))
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", help="result directories or sweep directories")
    p.add_argument("--vs-epsilon", action="store_true",
                   help="final utility against the final epsilon (one point per result)")
    p.add_argument("--series", help="with --vs-epsilon: join the points sharing this key's value")
    p.add_argument("--accountant", help="with --vs-epsilon: whose epsilon (default: each config's)")
    p.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                   help="keep the results whose resolved config has this value (repeatable)")
    p.add_argument("--title", help="the figure's title (none by default; --no-title drops it)")
    p.add_argument("--out", help="output stem (STEM.png, STEM.pdf; see --format)")
    add_style_arguments(p)
    a = p.parse_args()
    set_style(p, a)
    for cond in a.where:
        key, eq, _ = cond.partition("=")
        if not eq or not key.strip():
            p.error(f"--where takes KEY=VALUE, got '{cond}'")
    if (a.series or a.accountant) and not a.vs_epsilon:
        p.error("--series and --accountant go with --vs-epsilon")
    try:
        png = plot(a.inputs, a.vs_epsilon, a.series, a.accountant, a.where, a.title, a.out)
    except ResultError as e:
        sys.exit(f"plot_results: {e}")
    others = [f for f in STYLE["formats"][1:]]
    print(f"plot_results: wrote {png}" + "".join(f" and its .{f}" for f in others))


if __name__ == "__main__":
    main()
