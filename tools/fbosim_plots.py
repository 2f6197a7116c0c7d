"""Reading and drawing fbosim results: the one plotting code path of tools/plot_results.py (any
run directories or a sweep) and tools/plot_figures.py (the papers' figures).

A result directory is what `fbosim run` writes (summary.csv, config.resolved.yaml, and for some
plots trace.csv and timing.csv). Legends come from the resolved configs (the keys in which the
curves differ), the y label from the metric (simple regret where the optimum is known, else the
best validation or test error 1 - score, named for the objective), the x axis has integer
iteration ticks, the legend sits outside the axes so that it hides no data, and a corner names
the number of runs and of (run, agent) pairs behind each mean.

Every file is read through tools/fbosim_results.py, which checks it (a missing or damaged
summary.csv or config.resolved.yaml, or a NaN where fbosim writes a number, is a ResultError
naming the file, line, column and value; its docstring says which empty cells are legitimate:
an empty standard error with one run draws no band or bar). Figures are written under temporary
names and renamed once complete (save_all).

Uses Debian's python3-matplotlib, python3-pandas and python3-yaml only.
"""
import os

import matplotlib

matplotlib.use("Agg")  # files only; never needs a display
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402,F401 (plot_figures reads its CSVs with it)
from matplotlib.ticker import MaxNLocator  # noqa: E402

from fbosim_results import (ResultError, Table, check_output_stem,  # noqa: E402
                            read_config, read_summary, write_all)

# --------------------------------------------------------------------------------------------
# Reading results (every file checked by fbosim_results: a ResultError names the bad file)
# --------------------------------------------------------------------------------------------
read_resolved = read_config  # the flattened config.resolved.yaml

class Curve:
    """One result directory: its summary.csv and resolved config, both checked."""

    def __init__(self, directory):
        self.name = os.path.basename(os.path.normpath(directory))
        self.directory = directory
        if not os.path.isdir(directory):
            raise ResultError(f"{directory}: no such result directory")
        self.config_path = os.path.join(directory, "config.resolved.yaml")
        self.config = read_config(self.config_path)
        for key in ("algorithm", "runs", "rounds"):
            if key not in self.config:
                raise ResultError(f"{self.config_path}: no key '{key}' (not a configuration "
                                  "fbosim wrote)")
        self.integer("runs", lo=1)
        self.integer("rounds", lo=0)
        self.summary = read_summary(os.path.join(directory, "summary.csv"), self.config,
                                    self.config_path)

    def get(self, key, default=None):
        return self.config.get(key, default)

    def integer(self, key, default=None, lo=None):
        """The config's integer at key (default when absent); ResultError naming the file,
        key and value when it is not one."""
        value = self.config.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or \
                (lo is not None and value < lo):
            raise ResultError(f"{self.config_path}: {key} must be an integer"
                              f"{f' >= {lo}' if lo is not None else ''}, got {value!r}")
        return value

    def is_dp(self):
        return (self.get("algorithm", "dp_fts_de") in ("fts_de", "dp_fts", "dp_fts_de") and
                self.get("server.dp", True) is True)

    def is_private(self):
        """Whether the results spent privacy: a delta was recorded (summary.csv's delta column;
        results written before it had one: the config's algorithm and server.dp)."""
        if "delta" in self.summary.columns:
            return bool(self.summary["delta"].notna().all())
        return self.is_dp()

    def target_family(self):
        return self.get("algorithm") in ("fts_target", "rgpe", "taf")

    def message_floats(self):
        """Floats one source sends (FTS sec. 3.2): M, M + M^2, or M + M^2 + 1 (TAF)."""
        m = self.integer("rff.features", 100, lo=1)
        alg = self.get("algorithm")
        return m if alg == "fts_target" else m + m * m + (1 if alg == "taf" else 0)

    def epsilon_column(self):
        """The epsilon of the configured accountant (the `epsilon` column); an explicit
        epsilon_<accountant> column wins when present."""
        acc = self.get("server.accountant")
        col = f"epsilon_{acc}"
        return col if acc and col in self.summary.columns else "epsilon"

    def clipped_percent(self):
        """The percentage of the selected messages the server clipped (server.csv), or None
        without a clipping server."""
        path = os.path.join(self.directory, "server.csv")
        if not os.path.exists(path):
            return None
        server = Table(path, allow_no_rows=True)
        if not (server.has("clipped") and server.has("selected")) or len(server) == 0:
            return None
        clipped = server.number("clipped", lo=0, integer=True).sum()
        selected = server.number("selected", lo=0, integer=True).sum()
        return None if selected == 0 else 100.0 * clipped / selected

    def final_epsilon(self):
        return float(self.summary[self.epsilon_column()].iloc[-1])

    def epsilon_at(self, rnd):
        rows = self.summary if rnd is None else self.summary[self.summary["round"] <= rnd]
        row = rows.iloc[-1]
        return float(row[self.epsilon_column()]), int(row["round"])

    def y(self, kind):
        """(x, mean, se) of the plotted quantity (se NaN where there is none: one run)."""
        s = self.summary
        if kind == "regret":
            return s["round"].to_numpy(), s["mean_regret"].to_numpy(), s["se_regret"].to_numpy()
        # Best validation error = 1 - best score; the standard error is unchanged.
        return s["round"].to_numpy(), 1.0 - s["mean_best_f"].to_numpy(), s["se_best_f"].to_numpy()


def method_name(c):
    """The paper's name of the algorithm a config runs."""
    alg = c.get("algorithm", "dp_fts_de")
    if alg == "ts" or (alg == "fts_target" and c.get("target.schedule") == "local"):
        return "TS"
    if alg in ("rgpe", "taf"):
        return alg.upper() + (" (corrected)" if c.get("ensemble.variant") == "corrected" else "")
    if alg == "fts_target":
        return "FTS"
    de = c.integer("exploration.subregions", 1, lo=1) > 1
    return ("DP-" if c.is_dp() else "") + ("FTS-DE" if de else "FTS")


# Keys whose differences between the curves of a figure are worth a legend entry, with the
# paper's symbols. Anything else that differs is shown as key = value.
SYMBOLS = {
    "exploration.subregions": "P",
    "server.clip_norm": "S",
    "server.sampling_rate": "q",
    "server.noise_multiplier": "z",
    "objective.alpha": "alpha",
    "server.sampling": "sampling",
    "rff.features": "M",
    "sources.points": "t_n",
    "objective.perturbation": "d_n",
}
IGNORED = {"name", "seed", "runs", "algorithm", "server.dp", "ensemble.variant"}


def _describe(key, value, c):
    if key in ("exploration.schedule", "target.schedule"):
        return {"inv_sqrt": "1-p_t = 1/sqrt(t)", "inv": "1-p_t = 1/t",
                "inv_square": "1-p_t = 1/t^2"}.get(value, f"schedule {value}")
    if key == "exploration.weights.adaptive":
        return "adaptive weights" if value else "non-adaptive weights"
    if key == "exploration.weights.scheme":
        return {"equal": "equal weights", "softmax": "softmax weights",
                "linear": "linear weights", "quadratic": "quadratic weights"}.get(value, value)
    if key == "exploration.weights.start":
        return f"a = {value}"
    if key == "agents.init":
        return {"region": "local init", "domain": "whole-domain init"}.get(value, value)
    sym = SYMBOLS.get(key, key)
    return f"{sym} = {value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else f"{sym} = {value}"


def legend_labels(curves, epsilon_round=-1):
    """Method name plus the settings in which this curve differs from the figure's others.
    Settings that only matter to DP (q, z, S, sampling) are not listed for non-DP curves, and
    P is implied by the method name when it is 1. With epsilon_round != -1, DP curves also
    show epsilon at that round (None: the last; the last one run when fewer were run)."""
    order = list(SYMBOLS)  # the paper's order (P, S, q, z, ...), then the rest alphabetically
    keys = sorted({k for c in curves for k in c.config} - IGNORED,
                  key=lambda k: (order.index(k) if k in order else len(order), k))
    # TS ignores the communication settings, so they vary only if they vary among the others.
    others = [c for c in curves if method_name(c) != "TS"] or curves
    varying = [k for k in keys if len({repr(c.get(k)) for c in others}) > 1 or
               (k.startswith("objective.") and len({repr(c.get(k)) for c in curves}) > 1)]
    labels = []
    for c in curves:
        if not c.config:  # no resolved config: fall back on the result name
            labels.append(c.name)
            continue
        parts = []
        for k in varying:
            v = c.get(k)
            if v is None:
                continue
            if k.startswith("server.") and not c.is_dp():
                continue
            if method_name(c) == "TS" and not k.startswith("objective."):
                continue  # TS has no server, sub-regions, weights or sources
            if k == "exploration.subregions" and c.integer(k, lo=1) == 1:
                continue
            parts.append(_describe(k, v, c))
        label = method_name(c) + (f" ({', '.join(parts)})" if parts else "")
        if epsilon_round != -1 and c.is_dp():
            eps, rnd = c.epsilon_at(epsilon_round)
            label += f", eps = {eps:.2f} (t = {rnd})"
        labels.append(label)
    return labels




# The score behind 1 - best_f, per objective family (README: landmine AUC, activity validation
# accuracy, EMNIST test accuracy).
SCORE = {"landmine": "best validation error (1 - AUC)",
         "activity": "best validation error (1 - accuracy)",
         "emnist": "best test error (1 - accuracy)"}


def kind_of(curves):
    """"regret" when every curve knows its optimum (synthetic families), else "error"."""
    return "regret" if all(c.summary["mean_regret"].notna().any() for c in curves) else "error"


def y_label(kind, curves):
    if kind == "regret":
        return "simple regret"
    families = {c.get("objective.family") for c in curves}
    return SCORE.get(families.pop(), "best error (1 - best f)") if len(families) == 1 \
        else "best error (1 - best f)"


def corner_note(ax, curves):
    """The runs and (run, agent) pairs behind the means, in the lower left corner."""
    runs = sorted({c.integer("runs") for c in curves})
    pairs = sorted({int(c.summary["n"].iloc[-1]) for c in curves if "n" in c.summary})
    text = "runs: " + "/".join(map(str, runs)) if runs else ""
    if pairs:
        text += ("; " if text else "") + "means over " + "/".join(map(str, pairs)) + \
            " (run, agent) pairs"
    # summary.csv's bands: over the runs' means unless a config asked for the pairs' version.
    over = {c.get("standard_error", "runs") for c in curves}
    text += ("; " if text else "") + "bands: s.e. over " + \
        "/".join("(run, agent) pairs" if o == "pairs" else "runs" for o in sorted(over))
    ax.text(0.01, 0.01, text, transform=ax.transAxes, fontsize=7, color="0.35",
            ha="left", va="bottom")


def finish_axes(ax, legend=True):
    """Grid, and the legend outside the axes on the right so that it covers no data."""
    ax.grid(alpha=0.3)
    if legend and ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)


def draw_rounds(ax, curves, kind=None, labels=None, epsilon_round=-1, max_round=None,
                log=False):
    """Utility against iterations, mean +- standard error (as summary.csv gives them), one line
    and band per curve; integer iteration ticks. max_round: the iterations 0..max_round only;
    log: a log-scale utility axis (the late iterations' small regrets)."""
    kind = kind or kind_of(curves)
    if labels is None:
        show_eps = any(len({c.get(k) for c in curves if c.is_dp()}) > 1
                       for k in ("server.sampling_rate", "server.noise_multiplier"))
        labels = legend_labels(curves, epsilon_round if show_eps else -1)
    for c, label in zip(curves, labels):
        x, mean, se = c.y(kind)
        if max_round is not None:
            keep = x <= max_round
            x, mean, se = x[keep], mean[keep], se[keep]
        (line,) = ax.plot(x, mean, label=label, linewidth=1.5)
        ax.fill_between(x, mean - se, mean + se, color=line.get_color(), alpha=0.2, linewidth=0)
    if log:
        ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("iteration (0 = the initial queries)")
    ax.set_ylabel(y_label(kind, curves))
    corner_note(ax, curves)


def epsilon_column(c, accountant=None):
    """The summary column of `accountant`'s epsilon (epsilon_<name>, epsilon_<name>_approx for
    an approximation such as gdp, or `epsilon` when it is the config's server.accountant);
    ResultError naming what was recorded otherwise."""
    if accountant is None or accountant == c.get("server.accountant", "moments"):
        return c.epsilon_column()
    col = f"epsilon_{accountant}"
    if col not in c.summary.columns and f"{col}_approx" in c.summary.columns:
        return f"{col}_approx"
    if col not in c.summary.columns:
        recorded = [k for k in c.summary.columns if k.startswith("epsilon_")]
        raise ResultError(f"{os.path.join(c.directory, 'summary.csv')}: no {col} column "
                          f"(recorded: epsilon ({c.get('server.accountant', 'moments')})"
                          f"{''.join(', ' + k for k in recorded)}; run with --accountants "
                          f"{accountant})")
    return col


def _bars(se):
    """yerr for errorbar: None where no point has a standard error (one run), so that nothing
    pretends to be a zero-width interval; NaN entries draw no bar."""
    return se if any(v == v for v in se) else None


def draw_vs_epsilon(ax, curves, series_key=None, accountant=None, labels=None):
    """Final utility (+- s.e.) against the final epsilon, one point per curve; with series_key
    the points sharing its value are joined (e.g. one line per q along z). Every curve must be
    private (a non-private one has no privacy loss to draw against: ResultError naming it) and
    have series_key in its config."""
    for c in curves:
        if not c.is_private():
            raise ResultError(f"{c.directory}: not a private run (summary.csv records no delta "
                              "and epsilon 0): --vs-epsilon draws private results only; leave "
                              "it out (e.g. --where server.dp=true)")
        if series_key and series_key not in c.config:
            raise ResultError(f"{c.config_path}: no key '{series_key}' (--series)")
    kind = kind_of(curves)
    others = [k for k in SYMBOLS if k != series_key and len({repr(c.get(k)) for c in curves}) > 1]
    groups = {}
    for c in curves:
        groups.setdefault(c.get(series_key) if series_key else None, []).append(c)
    for value, members in groups.items():
        pts = sorted(((float(c.summary[epsilon_column(c, accountant)].iloc[-1]), c)
                      for c in members), key=lambda p: p[0])
        xs = [x for x, _ in pts]
        ys = [float(c.y(kind)[1][-1]) for _, c in pts]
        se = [float(c.y(kind)[2][-1]) for _, c in pts]
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        label = f"{SYMBOLS.get(series_key, series_key)} = {value:g}" \
            if series_key and number else \
            (f"{series_key} = {value}" if series_key else "runs")
        ax.errorbar(xs, ys, yerr=_bars(se), fmt="o-" if series_key else "o", capsize=3,
                    label=label)
        # Each point names the other settings that vary (e.g. z along a q series).
        for (x, c), y in zip(pts, ys):
            text = ", ".join(_describe_short(k, c.get(k)) for k in others)
            if text:
                ax.annotate(text, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
    acc = accountant or curves[0].get("server.accountant", "moments")
    ax.set_xlabel(f"privacy loss epsilon after the last iteration ({acc} accountant)")
    ax.set_ylabel(y_label(kind, curves))
    corner_note(ax, curves)


def _describe_short(key, value):
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return f"{SYMBOLS.get(key, key)}={value:g}" if number else f"{SYMBOLS.get(key, key)}={value}"


def figure_outputs(figure, stem, **savefig):
    """[(stem.png, write), (stem.pdf, write)] for fbosim_results.write_all."""
    def writer(ext):
        return lambda temp: figure.savefig(temp, format=ext, **savefig)
    return [(f"{stem}.{ext}", writer(ext)) for ext in ("png", "pdf")]


def save_all(figures, **savefig):
    """figures: [(figure, stem)]; every stem.png and stem.pdf written under temporary names and
    renamed once all are complete (nothing is left when one fails); the figures are closed."""
    savefig = {"dpi": 150, "bbox_inches": "tight", **savefig}
    try:
        outputs = []
        for figure, stem in figures:
            check_output_stem(stem)
            outputs += figure_outputs(figure, stem, **savefig)
        write_all(outputs)
    finally:
        for figure, _ in figures:
            plt.close(figure)


def save(figure, stem):
    """stem.png and stem.pdf (as save_all); returns the PNG's path."""
    save_all([(figure, stem)])
    return f"{stem}.png"
