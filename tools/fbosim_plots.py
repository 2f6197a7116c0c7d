"""Reading and drawing fbosim results: the one plotting code path of tools/plot_results.py (any
run directories or a sweep) and tools/plot_figures.py (the papers' figures).

A result directory is what `fbosim run` writes (summary.csv, config.resolved.yaml, and for some
plots trace.csv and timing.csv). Legends come from the resolved configs (the keys in which the
curves differ), the y label from the metric (simple regret where the optimum is known, else the
best validation or test error 1 - score, named for the objective), the x axis has integer
iteration ticks, the legend sits outside the axes so that it hides no data, and a corner names
the number of runs and of (run, agent) pairs behind each mean.

Uses Debian's python3-matplotlib and python3-pandas only.
"""
import os

import matplotlib

matplotlib.use("Agg")  # files only; never needs a display
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

# --------------------------------------------------------------------------------------------
# Reading results
# --------------------------------------------------------------------------------------------
def _scalar(text):
    """A YAML scalar as config.resolved.yaml writes it (yaml-cpp's emitter)."""
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(t)
        except ValueError:
            pass
    return t


def read_resolved(path):
    """Flattens the block mappings of config.resolved.yaml to {"server.clip_norm": 11, ...}.

    Only what fbosim writes is needed (block maps, scalars, block lists of scalars), so the
    standard library suffices; a list becomes a tuple of scalars."""
    flat, stack = {}, []  # stack of (indent, key prefix)
    last_key = None
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.split(" #", 1)[0].rstrip()
            if not line.strip() or line.lstrip().startswith("#") or line.strip() == "---":
                continue
            indent = len(line) - len(line.lstrip())
            body = line.strip()
            if body.startswith("- "):
                if last_key is not None:
                    old = flat.get(last_key)
                    flat[last_key] = (old if isinstance(old, tuple) else ()) + (_scalar(body[2:]),)
                continue
            while stack and stack[-1][0] >= indent:
                stack.pop()
            key, _, value = body.partition(":")
            full = ".".join([p for _, p in stack] + [key.strip()])
            if value.strip():
                flat[full] = _scalar(value)
                last_key = None
            else:
                stack.append((indent, key.strip()))
                last_key = full
    return flat


class Curve:
    """One result directory: its summary.csv and resolved config."""

    def __init__(self, directory):
        self.name = os.path.basename(os.path.normpath(directory))
        self.directory = directory
        path = os.path.join(directory, "summary.csv")
        self.summary = pd.read_csv(path)
        for column in ("round", "mean_regret", "se_regret", "mean_best_f", "se_best_f", "epsilon"):
            if column not in self.summary.columns:
                raise ValueError(f"{path}: no column '{column}'")
        if self.summary.empty:
            raise ValueError(f"{path}: no rows")
        resolved = os.path.join(directory, "config.resolved.yaml")
        self.config = read_resolved(resolved) if os.path.exists(resolved) else {}

    def get(self, key, default=None):
        return self.config.get(key, default)

    def is_dp(self):
        return (self.get("algorithm", "fts_de") in ("fts_de", "dp_fts", "dp_fts_de") and
                self.get("server.dp", True) is True)

    def target_family(self):
        return self.get("algorithm") in ("fts_target", "rgpe", "taf")

    def message_floats(self):
        """Floats one source sends (FTS sec. 3.2): M, M + M^2, or M + M^2 + 1 (TAF)."""
        m = int(self.get("rff.features", 100))
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
        server = pd.read_csv(path)
        if not {"clipped", "selected"} <= set(server.columns) or server["selected"].sum() == 0:
            return None
        return 100.0 * server["clipped"].sum() / server["selected"].sum()

    def final_epsilon(self):
        return float(self.summary[self.epsilon_column()].iloc[-1])

    def epsilon_at(self, rnd):
        rows = self.summary if rnd is None else self.summary[self.summary["round"] <= rnd]
        row = rows.iloc[-1]
        return float(row[self.epsilon_column()]), int(row["round"])

    def y(self, kind):
        """(x, mean, se) of the plotted quantity."""
        s = self.summary
        if kind == "regret":
            return s["round"].to_numpy(), s["mean_regret"].to_numpy(), s["se_regret"].to_numpy()
        # Best validation error = 1 - best score; the standard error is unchanged.
        return s["round"].to_numpy(), 1.0 - s["mean_best_f"].to_numpy(), s["se_best_f"].to_numpy()


def method_name(c):
    """The paper's name of the algorithm a config runs."""
    alg = c.get("algorithm", "fts_de")
    if alg == "ts" or (alg == "fts_target" and c.get("target.schedule") == "local"):
        return "TS"
    if alg in ("rgpe", "taf"):
        return alg.upper() + (" (corrected)" if c.get("ensemble.variant") == "corrected" else "")
    if alg == "fts_target":
        return "FTS"
    de = int(c.get("exploration.subregions", 1)) > 1
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
            if k == "exploration.subregions" and int(v) == 1:
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
    runs = sorted({int(c.get("runs", 0)) for c in curves if c.get("runs") is not None})
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
    KeyError naming what was recorded otherwise."""
    if accountant is None or accountant == c.get("server.accountant", "moments"):
        return c.epsilon_column()
    col = f"epsilon_{accountant}"
    if col not in c.summary.columns and f"{col}_approx" in c.summary.columns:
        return f"{col}_approx"
    if col not in c.summary.columns:
        raise KeyError(f"{c.directory}: no {col} column (run with --accountants {accountant})")
    return col


def draw_vs_epsilon(ax, curves, series_key=None, accountant=None, labels=None):
    """Final utility (+- s.e.) against the final epsilon, one point per curve; with series_key
    the points sharing its value are joined (e.g. one line per q along z)."""
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
        label = f"{SYMBOLS.get(series_key, series_key)} = {value:g}" \
            if series_key and isinstance(value, (int, float)) else \
            (f"{series_key} = {value}" if series_key else "runs")
        ax.errorbar(xs, ys, yerr=se, fmt="o-" if series_key else "o", capsize=3, label=label)
        # Each point names the other settings that vary (e.g. z along a q series).
        for (x, c), y in zip(pts, ys):
            text = ", ".join(f"{SYMBOLS.get(k, k)}={c.get(k):g}" if isinstance(c.get(k), (int, float))
                             else f"{SYMBOLS.get(k, k)}={c.get(k)}" for k in others)
            if text:
                ax.annotate(text, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
    acc = accountant or curves[0].get("server.accountant", "moments")
    ax.set_xlabel(f"privacy loss epsilon after the last iteration ({acc} accountant)")
    ax.set_ylabel(y_label(kind, curves))
    corner_note(ax, curves)


def save(figure, stem):
    """stem.png and stem.pdf; returns the PNG's path."""
    os.makedirs(os.path.dirname(os.path.abspath(stem)), exist_ok=True)
    for ext in ("png", "pdf"):
        figure.savefig(f"{stem}.{ext}", dpi=150, bbox_inches="tight")
    plt.close(figure)
    return f"{stem}.png"
