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
from cycler import cycler  # noqa: E402
from matplotlib.ticker import (FuncFormatter, LogLocator, MaxNLocator,  # noqa: E402
                               NullFormatter)

from fbosim_style import (FORMATS, STYLE, add_style_arguments, figure_size,  # noqa: E402,F401
                          set_style)
from fbosim_results import (ResultError, Table, check_output_stem,  # noqa: E402
                            read_config, read_summary, write_all)


# --------------------------------------------------------------------------------------------
# Style shared by every figure of the tools (issue 28 sec. 5): colour-blind-safe colours, one
# colour per curve across figures, optional title and footnote, the output formats, the
# utility axis scale, labels that do not overlap.
# --------------------------------------------------------------------------------------------
# Okabe & Ito, "Color Universal Design" (2008): distinguishable under the common colour-vision
# deficiencies. Yellow is left out of the sequences (it vanishes on white).
OKABE_ITO = {"black": "#000000", "orange": "#E69F00", "sky blue": "#56B4E9",
             "bluish green": "#009E73", "yellow": "#F0E442", "blue": "#0072B2",
             "vermillion": "#D55E00", "reddish purple": "#CC79A7", "grey": "#999999"}
_O = OKABE_ITO
# The one mapping from a named curve to its colour, in every figure of every tool: methods
# (method_name), the privacy accountants (plot_privacy.py) and the two privacy sweeps of
# Fig. 3a-c (the paper's green z dots and red q dots).
COLOURS = {
    "TS": _O["black"], "FTS": _O["sky blue"], "FTS-DE": _O["blue"], "DP-FTS": _O["orange"],
    "DP-FTS-DE": _O["vermillion"], "RGPE": _O["bluish green"], "TAF": _O["reddish purple"],
    "RGPE (corrected)": _O["bluish green"], "TAF (corrected)": _O["reddish purple"],
    "GP-UCB": _O["black"], "PO-GP-UCB": _O["vermillion"],
    "moments": _O["vermillion"], "rdp": _O["blue"], "pld": _O["bluish green"],
    "gdp": _O["grey"],
    "z sweep": _O["bluish green"], "q sweep": _O["vermillion"],
}
# Curves that are not a bare method (several settings of one method in a figure) take these in
# the order of their settings' first appearance, skipping the colours of the figure's methods.
VARIANT_COLOURS = [_O[k] for k in ("blue", "orange", "bluish green", "reddish purple",
                                   "sky blue", "vermillion", "black", "grey")]
matplotlib.rcParams["axes.prop_cycle"] = cycler(color=VARIANT_COLOURS)

# What the figures show (--log/--linear, --no-title, --no-footnote, --bare, --format):
# tools/fbosim_style.py, which needs no matplotlib.


def set_title(ax, text, **kw):
    """The axes' title unless --no-title."""
    if STYLE["title"] and text:
        ax.set_title(text, **{"fontsize": 10, **kw})


def utility_scale(default):
    """The utility axis scale: --log/--linear, else the figure's default."""
    return STYLE["scale"] or default


def apply_scale(ax, scale, axis="y", values=()):
    """Sets a log or linear scale on axis. A log axis with a zero or negative value among
    `values` (a mean regret of exactly 0) becomes symlog, linear below the smallest positive
    value, so that no point disappears."""
    setter = ax.set_yscale if axis == "y" else ax.set_xscale
    if scale != "log":
        setter("linear")
        return
    finite = [float(v) for v in values if v == v]
    positive = [v for v in finite if v > 0]
    if positive and any(v <= 0 for v in finite):
        setter("symlog", linthresh=min(positive))
    else:
        setter("log")


def epsilon_scale(values):
    """The epsilon axis' scale: --log-epsilon/--linear-epsilon, else log when the positive
    epsilons drawn span more than a decade (max > 10 min: the small ones would crowd at 0 on a
    linear axis), else linear. A log axis with an epsilon of 0 among them is symlog (as
    apply_scale)."""
    if STYLE["epsilon_scale"]:
        return STYLE["epsilon_scale"]
    positive = [float(v) for v in values if v == v and v > 0]
    return "log" if positive and max(positive) > 10 * min(positive) else "linear"


def epsilon_axis(ax, values, axis="x"):
    """The epsilon axis' scale (epsilon_scale); a log one is labelled at 1, 2 and 5 per decade
    in plain numbers (0.5, 1, 2, 5, 10), which a reader reads off faster than 10^0 alone."""
    scale = epsilon_scale(values)
    apply_scale(ax, scale, axis=axis, values=values)
    if scale == "log":
        target = ax.xaxis if axis == "x" else ax.yaxis
        target.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        target.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        target.set_minor_formatter(NullFormatter())


# Greyscale: each value of a swept key also has its line style and marker, so that a figure
# printed without colour still tells the curves apart.
LINESTYLES = ["-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)), (0, (8, 3)),
              (0, (3, 1, 1, 1))]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def value_ranks(curves, key):
    """{value: rank} of key's values among curves, in sorted order (numbers by value): the same
    value has the same rank, hence colour, line style and marker, in every figure drawn from the
    same results (a sweep's --where subsets included)."""
    values = {c.get(key) for c in curves}
    numbers = sorted(v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool))
    others = sorted((v for v in values if v not in numbers), key=repr)
    return {v: i for i, v in enumerate(numbers + others)}


def curve_colours(methods, settings):
    """Colours for the curves of one figure: methods[i] is curve i's method (or accountant,
    series) name, settings[i] what else tells it from the others ("" for a bare method). A
    method drawn once takes its COLOURS entry in every figure; a method drawn with several
    settings takes its own colour for the first setting, then VARIANT_COLOURS per setting (the
    same setting the same colour, e.g. Fig. 9's weight schemes for FTS-DE and DP-FTS-DE),
    skipping the colours of the lone methods.
    Returns (colours, linestyles): the methods of a multi-setting group are told apart by line
    style (solid, dashed, dash-dot, dotted in order of appearance)."""
    count = {}
    for m in methods:
        count[m] = count.get(m, 0) + 1
    lone = {m for m in methods if count[m] == 1 and m in COLOURS}
    taken = {COLOURS[m] for m in lone}
    free = [c for c in VARIANT_COLOURS if c not in taken] or VARIANT_COLOURS
    by_setting, grouped, used = {}, [], set()
    colours, styles = [], []
    for m, s in zip(methods, settings):
        if m in lone:
            colours.append(COLOURS[m])
            styles.append("-")
            continue
        key = s or m
        if key not in by_setting:
            # The method's own colour for its first setting, then the free ones in order.
            own = COLOURS.get(m)
            rest = [c for c in free if c not in used] or free
            by_setting[key] = own if own in free and own not in used else rest[0]
            used.add(by_setting[key])
        colours.append(by_setting[key])
        if m not in grouped:
            grouped.append(m)
        styles.append(["-", "--", "-.", ":"][grouped.index(m) % 4])
    return colours, styles


def _overlap(a, b):
    """The area two display boxes (x0, y0, x1, y1) share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * \
        max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _obstacles(ax):
    """Display boxes around everything drawn in the axes that a label must not cover: each
    marker, and lines (axhline included) and error bars sampled every few pixels."""
    import numpy as np
    from matplotlib.collections import LineCollection
    px = ax.figure.dpi / 72.0  # pixels per point
    sampled = []  # (display xy array, half width in pixels)
    boxes = []
    for line in ax.get_lines():
        xy = line.get_transform().transform(line.get_xydata())
        xy = xy[np.isfinite(xy).all(axis=1)]
        if line.get_linestyle() not in ("None", "", " "):
            sampled.append((xy, (line.get_linewidth() / 2 + 0.5) * px))
        if line.get_marker() not in (None, "None", "", " "):
            h = (line.get_markersize() / 2 + 0.5) * px
            boxes += [(x - h, y - h, x + h, y + h) for x, y in xy]
    for coll in ax.collections:
        if isinstance(coll, LineCollection):  # error bars
            sampled += [(coll.get_transform().transform(seg), 1.0 * px)
                        for seg in coll.get_segments()]
    for xy, h in sampled:
        for a, b in zip(xy[:-1], xy[1:]):
            n = int(np.hypot(*(b - a)) // h) + 1
            boxes += [(x - h, y - h, x + h, y + h)
                      for x, y in (a + (b - a) * k / n for k in range(n + 1))]
    return boxes


# Where a point's label may go, in points from the point (and its alignment): right of it,
# right-above, right-below, left, left-above, left-below, above, below, then further out.
_CANDIDATES = [(sx * d, sy * d) for d in (6, 14, 24)
               for sx, sy in ((1, 0), (1, 1), (1, -1), (-1, 0), (-1, 1), (-1, -1),
                              (0, 1.4), (0, -1.4))]


def _align(note, dx, dy):
    note.set_position((dx, dy))
    note.set_ha("left" if dx > 0 else "right" if dx < 0 else "center")
    note.set_va("bottom" if dy > 0 else "top" if dy < 0 else "center")


def segments_cross(a, b, c, d):
    """Whether the display segments a-b and c-d properly cross (touching ends do not count)."""
    def turn(p, q, r):
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return int(v > 0) - int(v < 0)
    return turn(a, b, c) * turn(a, b, d) < 0 and turn(c, d, a) * turn(c, d, b) < 0


def place_labels(ax, labels):
    """Point labels that overlap neither one another nor what is drawn (markers, lines, error
    bars) and stay inside the axes: labels is [(text, (x, y), colour)] (colour optional: the
    point's) in data coordinates, to be called once the axes' limits and scales are final.
    Each label is tried at the offsets of _CANDIDATES and keeps the first free one, else the
    one that overlaps least (a greedy placement, in the order given); a label moved beyond the
    nearest ring gets a thin leader line to its point, and a leader that would cross one already
    drawn costs as much as covering a label (crossed leaders pair labels with the wrong points).
    Returns the annotations."""
    figure = ax.figure
    renderer = figure.canvas.get_renderer()
    ax.get_xlim(), ax.get_ylim()  # applies pending autoscaling: transData is then final
    obstacles = _obstacles(ax)
    frame = ax.get_window_extent(renderer)
    placed, notes, leaders = [], [], []
    pt = figure.dpi / 72  # display pixels per point
    for text, xy, *colour in labels:
        colour = colour[0] if colour else "black"
        note = ax.annotate(text, xy, xytext=_CANDIDATES[0], textcoords="offset points",
                           fontsize=7, color=colour)
        notes.append(note)
        best = None
        at = ax.transData.transform(xy)
        for dx, dy in _CANDIDATES:
            _align(note, dx, dy)
            e = note.get_window_extent(renderer)
            box = (e.x0, e.y0, e.x1, e.y1)
            area = (e.x1 - e.x0) * (e.y1 - e.y0)
            inside = _overlap(box, (frame.x0, frame.y0, frame.x1, frame.y1))
            cost = 10 * (area - inside) + \
                10 * sum(_overlap(box, o) for o in placed) + \
                sum(_overlap(box, o) for o in obstacles)
            leader = None
            if max(abs(dx), abs(dy)) > _CANDIDATES[0][0]:
                leader = (at, (at[0] + dx * pt, at[1] + dy * pt))
                cost += 10 * area * sum(segments_cross(*leader, *o) for o in leaders)
            if best is None or cost < best[0]:
                best = (cost, dx, dy, box, leader)
            if cost == 0:
                break
        _, dx, dy, box, leader = best
        if leader is not None:
            leaders.append(leader)
        _align(note, dx, dy)
        if max(abs(dx), abs(dy)) > _CANDIDATES[0][0]:
            note.arrow_patch = None
            note.remove()
            note = ax.annotate(text, xy, xytext=(dx, dy), textcoords="offset points",
                               fontsize=7, color=colour, ha=note.get_ha(), va=note.get_va(),
                               arrowprops={"arrowstyle": "-", "color": colour, "lw": 0.6,
                                           "shrinkA": 1, "shrinkB": 4})
            notes[-1] = note
        placed.append(box)
    return notes


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
# Keys never named in a label: the result's name, where and how fast it ran (out, threads,
# objective.workers, objective.timeout), the runs and standard_error (the footnote says both),
# and the seed (two results that differ by their seed alone are replicates: they are then
# told apart by "seed = N", see legend_labels); algorithm, server.dp and ensemble.variant are in
# the method's name.
IGNORED = {"name", "seed", "runs", "algorithm", "server.dp", "ensemble.variant", "out",
           "threads", "objective.workers", "objective.timeout", "standard_error"}


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
        # Softmax weights start at a_t = a + 1 (DP-FTS-DE App. B: a = 15, a_t = 16), so the
        # paper's a is start - 1; the linear and quadratic schemes' a is start itself
        # (App. B.2.3: "a = 1,000 decayed to b = 1", "a = 40").
        softmax = c.get("exploration.weights.scheme", "softmax") == "softmax"
        return f"a = {value - 1 if softmax else value:g}"
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
    return distinct(curves, labels)


def distinct(curves, labels):
    """Labels that two curves share get the seed (replicates) or else the result's directory
    name appended, so that no two legend entries read the same."""
    seen = {}
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
    out = []
    for c, label in zip(curves, labels):
        if seen[label] > 1:
            twins = [d for d, l in zip(curves, labels) if l == label]
            seeds = {repr(d.get("seed")) for d in twins}
            label += f" (seed = {c.get('seed')})" if len(seeds) == len(twins) else f" [{c.name}]"
        out.append(label)
    return out




# The score behind 1 - best_f, per objective family (docs/REPRODUCTION.md, "Real-world experiments": landmine AUC, activity validation
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


def corner_note(ax, curves, drawn="bands"):
    """The runs and (run, agent) pairs behind the means and what the bands or error bars
    (drawn) are (the footnote; none with --no-footnote), in the right margin under the
    legend, where it hides no data."""
    if not STYLE["footnote"]:
        return
    runs = sorted({c.integer("runs") for c in curves})
    pairs = sorted({int(c.summary["n"].iloc[-1]) for c in curves if "n" in c.summary})
    lines = ["runs: " + "/".join(map(str, runs))] if runs else []
    if pairs:
        lines.append("means over " + "/".join(map(str, pairs)) + " (run, agent) pairs")
    lines.append(spread_note(curves, drawn))
    ax.text(1.01, 0.0, "\n".join(lines), transform=ax.transAxes, fontsize=7, color="0.35",
            ha="left", va="bottom")


def spread_note(curves, drawn="bands"):
    """What the bands or error bars are: "bands: +-1 s.e. over 20 runs" (summary.csv's
    standard error: over the runs' means unless a config asked for the (run, agent) pairs'),
    or "no bands (1 run)" where no curve has a standard error."""
    with_se = [c for c in curves if pd.Series(c.y(kind_of(curves))[2]).notna().any()]
    if not with_se:
        return f"no {drawn} (1 run)"
    over = []
    for c in with_se:
        n = int(c.summary["n"].iloc[-1]) if "n" in c.summary else None
        what = (f"{n} (run, agent) pairs" if n else "(run, agent) pairs") \
            if c.get("standard_error", "runs") == "pairs" else f"{c.integer('runs')} runs"
        if what not in over:
            over.append(what)
    return f"{drawn}: \u00b11 s.e. over " + "/".join(over)


def place_legend(ax, default="outside", fontsize=8, **kw):
    """The legend where --legend puts it (else `default`): outside (right of the axes), below,
    none, or a matplotlib place inside the axes."""
    where = STYLE["legend"] or default
    if where == "none" or not ax.get_legend_handles_labels()[0]:
        return
    if where == "outside":
        ax.legend(fontsize=fontsize, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  borderaxespad=0, **kw)
    elif where == "below":  # under the x axis' label; one column for long labels
        labels = ax.get_legend_handles_labels()[1]
        ax.legend(fontsize=fontsize, loc="upper center", bbox_to_anchor=(0.5, -0.18),
                  borderaxespad=0, ncol=1 if max(map(len, labels)) > 30 else 2, **kw)
    else:
        ax.legend(fontsize=fontsize, loc=where, **kw)


def finish_axes(ax, legend=True):
    """Grid, and the legend outside the axes on the right so that it covers no data."""
    ax.grid(alpha=0.3)
    if legend:
        place_legend(ax)


def draw_rounds(ax, curves, kind=None, labels=None, epsilon_round=-1, max_round=None,
                scale=None, styles=None):
    """Utility against iterations, mean +- standard error (as summary.csv gives them), one line
    and band per curve, coloured by curve_colours; integer iteration ticks. max_round: the
    iterations 0..max_round only; scale: "log" or "linear" utility axis (default: log for
    simple regret, which spans decades as the curves converge, linear for an error 1 - score;
    --log/--linear win). styles: [(colour, linestyle, marker)] per curve in place of
    curve_colours' (plot_results.py's stable colours per swept value)."""
    kind = kind or kind_of(curves)
    if labels is None:
        show_eps = any(len({c.get(k) for c in curves if c.is_dp()}) > 1
                       for k in ("server.sampling_rate", "server.noise_multiplier"))
        labels = legend_labels(curves, epsilon_round if show_eps else -1)
    methods = [method_name(c) if c.config else c.name for c in curves]
    given = styles
    colours, styles = curve_colours(methods, [label[len(m):] if label.startswith(m) else label
                                              for m, label in zip(methods, labels)])
    # A marker per curve (a few per line), so that curves of one line style stay apart in
    # greyscale.
    markers = [MARKERS[i % len(MARKERS)] for i in range(len(curves))]
    if given is not None:
        colours, styles, markers = (list(t) for t in zip(*given))
    drawn = []
    for c, label, colour, style, marker in zip(curves, labels, colours, styles, markers):
        x, mean, se = c.y(kind)
        if max_round is not None:
            keep = x <= max_round
            x, mean, se = x[keep], mean[keep], se[keep]
        (line,) = ax.plot(x, mean, label=label, linewidth=1.5, color=colour, linestyle=style,
                          marker=marker, markersize=4, markevery=max(1, len(x) // 8))
        ax.fill_between(x, mean - se, mean + se, color=line.get_color(), alpha=0.2, linewidth=0)
        drawn.extend(mean)
    apply_scale(ax, utility_scale(scale or ("log" if kind == "regret" else "linear")),
                values=drawn)
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


def draw_vs_epsilon(ax, curves, series_key=None, accountant=None, labels=None, scale=None,
                    ranks=None):
    """Final utility (+- s.e.) against the final epsilon, one point per curve; with series_key
    the points sharing its value are joined (e.g. one line per q along z). Every curve must be
    private (a non-private one has no privacy loss to draw against: ResultError naming it) and
    have series_key in its config. ranks: {series value: rank} (value_ranks over all the
    results the figures are drawn from), which picks each series' colour, line style and
    marker; default: the order of the values here. The epsilon axis is log when the epsilons
    span more than a decade (epsilon_scale)."""
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
    if ranks is None:
        ranks = {v: i for i, v in enumerate(groups)}
    notes, drawn, xs_all = [], [], []
    for value, members in groups.items():
        rank = ranks.get(value, len(ranks))
        colour = VARIANT_COLOURS[rank % len(VARIANT_COLOURS)]
        pts = sorted(((float(c.summary[epsilon_column(c, accountant)].iloc[-1]), c)
                      for c in members), key=lambda p: p[0])
        xs = [x for x, _ in pts]
        ys = [float(c.y(kind)[1][-1]) for _, c in pts]
        se = [float(c.y(kind)[2][-1]) for _, c in pts]
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        label = f"{SYMBOLS.get(series_key, series_key)} = {value:g}" \
            if series_key and number else \
            (f"{series_key} = {value}" if series_key else "runs")
        ax.errorbar(xs, ys, yerr=_bars(se), marker=MARKERS[rank % len(MARKERS)],
                    linestyle=LINESTYLES[rank % len(LINESTYLES)] if series_key else "none",
                    capsize=3, label=label, color=colour)
        drawn.extend(ys)
        xs_all.extend(xs)
        # Each point names the other settings that vary (e.g. z along a q series).
        for (x, c), y in zip(pts, ys):
            text = ", ".join(_describe_short(k, c.get(k)) for k in others)
            if text:
                notes.append((text, (x, y), colour))
    apply_scale(ax, utility_scale(scale or ("log" if kind == "regret" else "linear")),
                values=drawn)
    epsilon_axis(ax, xs_all)
    place_labels(ax, notes)  # after the scale: the placement is measured on the canvas
    acc = accountant or curves[0].get("server.accountant", "moments")
    ax.set_xlabel(f"privacy loss epsilon after the last iteration ({acc} accountant)")
    ax.set_ylabel(y_label(kind, curves))
    corner_note(ax, curves, "error bars")


def _describe_short(key, value):
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return f"{SYMBOLS.get(key, key)}={value:g}" if number else f"{SYMBOLS.get(key, key)}={value}"


def figure_outputs(figure, stem, **savefig):
    """[(stem.<format>, write)] for every format of STYLE (--format; default png and pdf, the
    PDF a vector drawing) for fbosim_results.write_all."""
    def writer(ext):
        return lambda temp: figure.savefig(temp, format=ext, **savefig)
    return [(f"{stem}.{ext}", writer(ext)) for ext in STYLE["formats"]]


def save_all(figures, **savefig):
    """figures: [(figure, stem)]; every stem.<format> written under temporary names and renamed
    once all are complete (nothing is left when one fails); the figures are closed."""
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
    """stem.<format> for each format (as save_all); returns the first one's path."""
    save_all([(figure, stem)])
    return f"{stem}.{STYLE['formats'][0]}"
