#!/usr/bin/python3
"""Figures and tables of issue #12 from the results tools/private_bo.sh writes:

  po_fig2a.png/.pdf      PO-GP-UCB, Kharkovskii, Dai & Low (ICML 2020) Fig. 2a: simple regret
                         after T = 50 against epsilon (r = 10), per setting, with non-private
                         GP-UCB as a band; the dotted line is where omega = sigma_min
  po_tables.md/.csv      Tables 1-3: simple regret against r at epsilon = e^1.1, e^1.3, e^1.5,
                         the paper's numbers next to ours (mean +- s.e. over 50 runs)
  dpbo_landmine.png/.pdf the DP release of BO results (Kusner et al., ICML 2015) on landmine:
                         (a) validation AUC of the released hyperparameter and (b) the error of
                         the released best AUC against epsilon, Kusner's mechanisms and Papernot
                         & Steinke's random search, with the non-private references
  dpbo_landmine.md       the same numbers as a table
  dpbo_synthetic.png/.pdf the synthetic check: regret of the released candidate against epsilon

    tools/plot_private_bo.py [--results DIR] [--out DIR]
    tools/plot_private_bo.py --self-test

Missing results skip their figure with one line on stderr. Results that are there but cannot
be used (an empty, truncated or damaged sweep.csv, summary.csv, release.csv or
config.resolved.yaml, a sweep row whose dir points outside the sweep, a NaN where fbosim writes
a number: tools/fbosim_results.py) are named with the file, line, column and value, and then
nothing is written. Every figure and table is written under a temporary name, and all are
renamed once all are complete. The exit status is 0 if anything was drawn and no results were
unreadable, else 1. Uses Debian's python3-matplotlib, python3-pandas and python3-yaml.
"""

import argparse
import math
import os
import sys
import tempfile

import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fbosim_plots import (COLOURS, STYLE, VARIANT_COLOURS, add_style_arguments,  # noqa: E402
                          LINESTYLES, MARKERS, apply_scale, epsilon_axis, figure_size,
                          place_legend, plt, set_style, set_title, utility_scale)
from fbosim_results import (ResultError, Table, inside, read_config,  # noqa: E402
                            read_summary, text_writer, write_all)

# The paper's numbers (Kharkovskii et al. 2020, Tables 1-3).
PAPER_TABLES = {
    1: (1.1, {3: 0.073, 6: 0.038, 8: 0.018, 10: 0.014, 15: 0.118, 20: 0.137}, 10),
    2: (1.3, {3: 0.091, 9: 0.009, 12: 0.019, 15: 0.008, 20: 0.127, 30: 0.134}, 15),
    3: (1.5, {5: 0.05, 10: 0.021, 15: 0.003, 20: 0.002, 30: 0.094, 50: 0.142}, 20),
}
# Fig. 2a as quoted in the text: extra simple regret over non-private GP-UCB, in sigma_y.
PAPER_FIG2A_GAP = {1.1: 0.011, 0.9: 0.069, 0.0: 0.099}
# (label, sweep suffix, baseline run) of the settings drawn.
SETTINGS = [
    ("paper (l = 1.25)", "", "po_fig2a_gp_ucb"),
    ("paper, l = 6.25", "_l6.25", "po_fig2a_l6.25_gp_ucb"),
    ("authors (l = 6.25)", "_authors", "po_fig2a_authors_gp_ucb"),
]
SIGMA_MIN = 1030.88  # the centred grid's smallest singular value (closed form: curator_test.cpp)


def omega(eps, delta, r):
    """Alg. 1 line 5 [reconstructed]: 16 sqrt(r ln(2/delta)) ln(16 r / delta) / eps."""
    return 16 * math.sqrt(r * math.log(2 / delta)) * math.log(16 * r / delta) / eps


def read_sweep(results, name, key, points=False):
    """results/<name>_sweep/sweep.csv as floats (key, mean_regret, se_regret; with points the
    point directories, checked to lie inside the sweep, instead), or None when there is none;
    ResultError naming the file, line and column of anything unusable."""
    directory = os.path.join(results, name + "_sweep")
    path = os.path.join(directory, "sweep.csv")
    if not os.path.exists(path):
        return None
    if points:
        t = Table(path, ("point", key, "dir"))
        t.number("point", lo=0, integer=True)
        return pd.DataFrame({key: t.number(key),
                             "dir": [inside(directory, d, f"{path}: line {line}, column 'dir'")
                                     for d, line in zip(t.text("dir"), t.lines)]})
    t = Table(path, ("point", key, "mean_regret", "se_regret"))
    t.number("point", lo=0, integer=True)
    # se_regret is empty where there is no standard error (one run): no error bar is drawn.
    return pd.DataFrame({key: t.number(key), "mean_regret": t.number("mean_regret"),
                         "se_regret": t.number("se_regret", empty="allowed", lo=0)})


def final_regret(results, name):
    directory = os.path.join(results, name)
    path = os.path.join(directory, "summary.csv")
    if not os.path.exists(path):
        return None
    config_path = os.path.join(directory, "config.resolved.yaml")
    summary = read_summary(path, read_config(config_path), config_path)
    last = summary.iloc[-1]
    if math.isnan(last["mean_regret"]):
        raise ResultError(f"{path}: no mean_regret (an unknown optimum), but a regret baseline")
    return float(last["mean_regret"]), float(last["se_regret"])


def save(fig, out, stem):
    """The outputs (fbosim_results.write_all) of stem.png and stem.pdf in out; draw() writes
    them with every other product's once all were made, and closes the figure."""
    FIGURES.append(fig)
    def writer(ext):
        return lambda temp: fig.savefig(temp, format=ext, bbox_inches="tight")
    return [(os.path.join(out, f"{stem}.{ext}"), writer(ext)) for ext in STYLE["formats"]]


FIGURES = []  # the figures made by the products of one draw()


def pm(mean, se):
    """mean +- se, or the mean alone where there is no standard error (one run)."""
    return f"{mean:.3f} +- {se:.3f}" if se == se else f"{mean:.3f} (one run: no s.e.)"


def po_fig2a(results, out):
    fig, ax = plt.subplots(figsize=figure_size((6.4, 4.2)))
    drawn, eps = False, []
    for k, (label, suffix, base) in enumerate(SETTINGS):
        s = read_sweep(results, "po_fig2a" + suffix, "curator.epsilon")
        if s is None:
            continue
        s = s.sort_values("curator.epsilon")
        color = VARIANT_COLOURS[k]
        # A marker and line style per setting: apart in greyscale too.
        ax.errorbar(s["curator.epsilon"], s["mean_regret"], yerr=s["se_regret"],
                    marker=MARKERS[k], linestyle=LINESTYLES[k], capsize=3, color=color,
                    label=f"PO-GP-UCB, {label}")
        eps += list(s["curator.epsilon"])
        b = final_regret(results, base)
        if b is not None:
            ax.axhline(b[0], color=color, ls="--", lw=1, label=f"GP-UCB, {label}")
            ax.axhspan(b[0] - b[1], b[0] + b[1], color=color, alpha=0.12)
        drawn = True
    if not drawn:
        print("plot_private_bo: skipped po_fig2a: no results/po_fig2a*_sweep", file=sys.stderr)
        plt.close(fig)
        return None
    ax.axvline(omega(1, 1e-5, 10) / SIGMA_MIN, color="grey", ls=":", lw=1)
    epsilon_axis(ax, eps)  # linear unless epsilon spans more than a decade (docs/FIGURES.md)
    # Regrets span 1e-3 (l = 6.25) to 1 (l = 1.25), and GP-UCB's is often exactly 0: symlog
    # by default; --linear draws a linear axis, --log the same symlog (a log axis hides 0).
    if utility_scale("log") == "log":
        ax.set_yscale("symlog", linthresh=1e-3)
        ax.set_ylim(0, 3)
    else:
        apply_scale(ax, "linear")
    ax.set_xlabel("epsilon (delta = 1e-5, r = 10); dotted: omega = sigma_min")
    ax.set_ylabel("simple regret after T = 50")
    set_title(ax, "PO-GP-UCB, synthetic GP data (Fig. 2a)")
    place_legend(ax, "outside", fontsize=7)
    return save(fig, out, "po_fig2a")


def po_tables(results, out):
    rows, lines = [], []
    labels = [label for label, _, _ in SETTINGS]
    for t, (log_eps, paper, largest) in PAPER_TABLES.items():
        sweeps = [read_sweep(results, f"po_table{t}{suffix}", "curator.r")
                  for _, suffix, _ in SETTINGS]
        if all(s is None for s in sweeps):
            continue
        lines.append(f"\nTable {t}: epsilon = e^{log_eps}, delta = 1e-5, T = 50; the largest "
                     f"tested r in the if branch is {largest}\n")
        lines.append("| r | branch | paper | " + " | ".join(labels) + " |")
        lines.append("|---|---|---|" + "---|" * len(labels))
        for r, value in paper.items():
            branch = "if" if SIGMA_MIN >= omega(math.exp(log_eps), 1e-5, r) else "else"
            cells = []
            for (label, _, _), s in zip(SETTINGS, sweeps):
                hit = None if s is None else s[s["curator.r"] == r]
                if hit is None or hit.empty:
                    cells.append("")
                    continue
                m, se = float(hit["mean_regret"].iloc[0]), float(hit["se_regret"].iloc[0])
                cells.append(pm(m, se))
                rows.append({"table": t, "epsilon": f"e^{log_eps}", "r": r, "branch": branch,
                             "setting": label, "paper": value, "mean_regret": m, "se_regret": se})
            mark = "**" if r == largest else ""
            lines.append(f"| {mark}{r}{mark} | {branch} | {value} | " + " | ".join(cells) + " |")
    if not rows:
        print("plot_private_bo: skipped po_tables: no results/po_table*_sweep", file=sys.stderr)
        return None
    text = "PO-GP-UCB, simple regret after 50 iterations (mean +- s.e. over 50 runs)\n" + \
        "\n".join(lines) + "\n"
    print(text)
    return [(os.path.join(out, "po_tables.md"), text_writer(text)),
            (os.path.join(out, "po_tables.csv"),
             lambda temp: pd.DataFrame(rows).to_csv(temp, index=False))]


# release.csv: every column the summaries read. Empty cells where fbosim leaves them: the
# non-private reference rows (mechanism none) have no release_epsilon, release_delta,
# sensitivity or nonprivate value; best-value rows have no released point (x0.., regret);
# regret is empty where the optimum is unknown (real data).
RELEASE_NUMBERS = ("release_epsilon", "sensitivity", "value", "nonprivate", "f", "regret",
                   "evaluations")


def read_release(path):
    t = Table(path, ("quantity", "mechanism") + RELEASE_NUMBERS)
    mechanism = t.text("mechanism")
    quantity = t.text("quantity")
    for i, (m, q) in enumerate(zip(mechanism, quantity)):
        if not m.strip():
            raise t.where(i, "mechanism", m, "an empty mechanism")
        if q not in ("hyperparameter", "best_value"):
            raise t.where(i, "quantity", q, "must be hyperparameter or best_value")
    out = pd.DataFrame({"quantity": quantity, "mechanism": mechanism})
    private = mechanism != "none"
    for column in RELEASE_NUMBERS:
        values = t.number(column, empty="never" if column in ("value", "f", "evaluations")
                          else "allowed", lo=0 if column in ("sensitivity",
                                                             "evaluations") else None)
        if column in ("release_epsilon", "sensitivity", "nonprivate"):
            for i in [i for i in range(len(t)) if private[i] and values[i] != values[i]]:
                raise t.where(i, column, "", f"empty in a release by {mechanism[i]}")
        out[column] = values
    return out


def release_points(results, name):
    """Per epsilon: the rows of every point's release.csv, with the epsilon of the sweep."""
    s = read_sweep(results, name, "release.epsilon", points=True)
    if s is None:
        return None
    frames = []
    for _, p in s.iterrows():
        r = read_release(os.path.join(p["dir"], "release.csv"))
        r["sweep_epsilon"] = float(p["release.epsilon"])
        frames.append(r)
    return pd.concat(frames, ignore_index=True)


def summarise(rows, mechanism, value_mechanism=None):
    """Mean and s.e. over runs, per epsilon: f of the released point (by `mechanism`) and
    |value - nonprivate| of the released best value (by `value_mechanism`, default the same)."""
    out = []
    for eps, g in rows.groupby("sweep_epsilon"):
        h = g[(g["quantity"] == "hyperparameter") & (g["mechanism"] == mechanism)]
        v = g[(g["quantity"] == "best_value") & (g["mechanism"] == (value_mechanism or mechanism))]
        ref_h = g[(g["quantity"] == "hyperparameter") & (g["mechanism"] == "none")]
        err = (v["value"] - v["nonprivate"]).abs()
        n = max(len(h), 1)
        out.append({"epsilon": eps, "f": h["f"].mean(), "f_se": h["f"].std(ddof=1) / math.sqrt(n)
                    if len(h) > 1 else 0.0, "regret": h["regret"].mean(),
                    "value_error": err.mean() if len(v) else float("nan"),
                    "sensitivity": h["sensitivity"].mean() if len(h) else float("nan"),
                    "reference_f": ref_h["f"].mean(),
                    "evaluations": h["evaluations"].mean() if len(h) else 0.0})
    return pd.DataFrame(out).sort_values("epsilon")


def dpbo_landmine(results, out):
    # (results name, the hyperparameter's mechanism, the best value's, label)
    curves = [("dpbo_landmine", "exponential", "laplace",
               "Kusner: exponential mechanism and Laplace (noisy)"),
              ("dpbo_landmine_noise_free", "exponential", "laplace", "Kusner: noise-free"),
              ("dpbo_landmine_ps", "papernot_steinke", "papernot_steinke",
               "Papernot & Steinke random search")]
    fig, (a, b) = plt.subplots(1, 2, figsize=figure_size((11, 4.2)))
    lines, drawn, reference = [], False, None
    for k, (name, mech, value_mech, label) in enumerate(curves):
        rows = release_points(results, name)
        if rows is None:
            continue
        s = summarise(rows, mech, value_mech)
        # A marker and line style per curve: the noise-free curve lies on the noisy one.
        a.errorbar(s["epsilon"], s["f"], yerr=s["f_se"], marker=MARKERS[k],
                   linestyle=LINESTYLES[k], capsize=3, color=VARIANT_COLOURS[k], label=label)
        if s["value_error"].notna().any():
            b.plot(s["epsilon"], s["value_error"], marker=MARKERS[k], linestyle=LINESTYLES[k],
                   color=VARIANT_COLOURS[k], label=label)
        reference = s["reference_f"].mean()
        lines.append(f"\n{label} ({name})\n")
        lines.append("| epsilon | sensitivity | AUC of the released C, gamma | |released - best| "
                     "AUC | evaluations |")
        lines.append("|---|---|---|---|---|")
        for _, r in s.iterrows():
            lines.append(f"| {r['epsilon']:g} | {r['sensitivity']:.3g} | {r['f']:.3f} +- "
                         f"{r['f_se']:.3f} | {r['value_error']:.3g} | {r['evaluations']:.1f} |")
        drawn = True
    if not drawn:
        print("plot_private_bo: skipped dpbo_landmine: no results/dpbo_landmine*_sweep",
              file=sys.stderr)
        plt.close(fig)
        return None
    a.axhline(reference, color=COLOURS["TS"], ls="--", lw=1, label="non-private: argmax of mu_T")
    lines.append(f"\nnon-private reference (argmax mu_T): AUC {reference:.3f}\n")
    for ax in (a, b):
        ax.set_xscale(STYLE["epsilon_scale"] or "log")
        ax.set_xlabel("epsilon of each release")
    b.set_yscale("log")
    a.set_ylabel("validation AUC of the released hyperparameter")
    b.set_ylabel("|released best AUC - max_t y_t|")
    set_title(a, "(a) released hyperparameter")
    set_title(b, "(b) released best validation score")
    place_legend(a, "below", fontsize=7)  # inside, it would cover points or the reference
    place_legend(b, "upper right", fontsize=7)
    return save(fig, out, "dpbo_landmine") + [
        (os.path.join(out, "dpbo_landmine.md"),
         text_writer("DP release of BO results on landmine field 0 (mean over runs)\n" +
                     "\n".join(lines) + "\n"))]


def dpbo_synthetic(results, out):
    fig, ax = plt.subplots(figsize=figure_size((6.4, 4.2)))
    drawn = False
    for k, (name, mech, label) in enumerate(
            [("dpbo_synthetic", "exponential", "Kusner: exponential mechanism"),
             ("dpbo_synthetic_ps", "papernot_steinke", "Papernot & Steinke")]):
        rows = release_points(results, name)
        if rows is None:
            continue
        s = summarise(rows, mech)
        ax.plot(s["epsilon"], s["regret"], marker="o", color=VARIANT_COLOURS[k], label=label)
        ref = rows[(rows["quantity"] == "hyperparameter") & (rows["mechanism"] == "none")]
        ax.axhline(ref["regret"].mean(), color=COLOURS["TS"], ls="--", lw=1)
        drawn = True
    if not drawn:
        print("plot_private_bo: skipped dpbo_synthetic: no results/dpbo_synthetic*_sweep",
              file=sys.stderr)
        plt.close(fig)
        return None
    ax.set_xscale(STYLE["epsilon_scale"] or "log")
    ax.set_xlabel("epsilon of the release")
    ax.set_ylabel("regret of the released candidate (dashed: argmax mu_T)")
    set_title(ax, "DP release of BO results, synthetic check")
    place_legend(ax, "best", fontsize=7)
    return save(fig, out, "dpbo_synthetic")


def draw(results, out):
    """Every figure and table whose results exist, written all at once; 0 if one was drawn, 1
    if nothing was, or if any results were unreadable (each named on stderr; then nothing is
    written)."""
    outputs, unreadable = [], 0
    try:
        for product in (po_fig2a, po_tables, dpbo_landmine, dpbo_synthetic):
            try:
                outputs += product(results, out) or []
            except ResultError as e:
                print(f"plot_private_bo: error: {product.__name__}: {e}", file=sys.stderr)
                unreadable += 1
        if unreadable:
            print("plot_private_bo: wrote nothing: fix or remove the results named above",
                  file=sys.stderr)
            return 1
        write_all(outputs)
    except ResultError as e:  # an output that cannot be written
        print(f"plot_private_bo: {e}", file=sys.stderr)
        return 1
    finally:
        for fig in FIGURES:
            plt.close(fig)
        FIGURES.clear()
    return 0 if outputs else 1


def self_test():
    """Draws made-up results and checks what was written."""
    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(tmp, "r")
        for _, suffix, base in SETTINGS:
            d = os.path.join(res, f"po_fig2a{suffix}_sweep")
            os.makedirs(d)
            pd.DataFrame({"point": range(3), "curator.epsilon": [1.0, 2.0, 3.0],
                          "mean_regret": [0.3, 0.2, 0.1], "se_regret": [0.01] * 3,
                          "dir": ["a", "b", "c"]}).to_csv(os.path.join(d, "sweep.csv"),
                                                          index=False)
            os.makedirs(os.path.join(res, base))
            pd.DataFrame({"round": [0, 1], "mean_regret": [1, 0.05], "se_regret": [0.1, 0.01],
                          "mean_best_f": [0.5, 0.9], "se_best_f": [0.1, 0.01],
                          "epsilon": [0, 0], "delta": [None, None], "n": [2, 2]}).to_csv(
                os.path.join(res, base, "summary.csv"), index=False)
            with open(os.path.join(res, base, "config.resolved.yaml"), "w") as f:
                f.write("name: gp_ucb\nalgorithm: gp_ucb\nruns: 2\nrounds: 1\n")
            for t, (_, paper, _) in PAPER_TABLES.items():
                d = os.path.join(res, f"po_table{t}{suffix}_sweep")
                os.makedirs(d)
                pd.DataFrame({"point": range(len(paper)), "curator.r": list(paper),
                              "mean_regret": [0.0123] * len(paper),
                              "se_regret": [0.002] * len(paper)}).to_csv(
                    os.path.join(d, "sweep.csv"), index=False)
        for name, mech in [("dpbo_landmine", "exponential"), ("dpbo_landmine_ps",
                                                              "papernot_steinke"),
                           ("dpbo_synthetic", "exponential")]:
            d = os.path.join(res, name + "_sweep")
            os.makedirs(d)
            pd.DataFrame({"point": [0, 1], "release.epsilon": [1, 10],
                          "dir": ["e1", "e10"]}).to_csv(os.path.join(d, "sweep.csv"), index=False)
            for p, eps in [("e1", 1), ("e10", 10)]:
                os.makedirs(os.path.join(d, p))
                pd.DataFrame([
                    {"run": 0, "agent": 0, "quantity": "hyperparameter", "mechanism": mech,
                     "release_epsilon": eps, "release_delta": 1e-3, "sensitivity": 13.0,
                     "value": 5, "nonprivate": 3, "x0": 0.1, "x1": 0.2, "f": 0.7, "regret": 0.2,
                     "evaluations": 4},
                    {"run": 0, "agent": 0, "quantity": "best_value", "mechanism": mech,
                     "release_epsilon": eps, "release_delta": 1e-3, "sensitivity": 15.0,
                     "value": 0.9 + 10 / eps, "nonprivate": 0.9, "f": 0.9, "evaluations": 0},
                    {"run": 0, "agent": 0, "quantity": "hyperparameter", "mechanism": "none",
                     "value": 3, "x0": 0.3, "x1": 0.3, "f": 0.9, "regret": 0.0,
                     "evaluations": 0}]).to_csv(os.path.join(d, p, "release.csv"), index=False)
        out = os.path.join(tmp, "figures")
        assert draw(res, out) == 0
        for stem in ("po_fig2a", "dpbo_landmine", "dpbo_synthetic"):
            for ext in ("png", "pdf"):
                path = os.path.join(out, f"{stem}.{ext}")
                assert os.path.getsize(path) > 0, path
        md = open(os.path.join(out, "po_tables.md")).read()
        assert "| **10** | if | 0.014 | 0.012 +- 0.002" in md, md
        assert "| 15 | else | 0.118 |" in md, md
        assert "| **20** | if | 0.002 |" in md, md
        land = open(os.path.join(out, "dpbo_landmine.md")).read()
        assert "| 1 | 13 | 0.700 +- 0.000 | 10 | 4.0 |" in land, land
        assert "| 10 | 13 | 0.700 +- 0.000 | 1 | 4.0 |" in land, land
        # omega at Table 1's setting (epsilon = e^1.1, delta = 1e-5, r = 10)
        assert abs(omega(math.exp(1.1), 1e-5, 10) - 976.1) < 0.1
        # Issue 28 sec. 5: titles by default, none with --bare; the settings in the
        # colour-blind-safe sequence; --format pdf writes the PDFs alone.
        po_fig2a(res, out)
        titled = FIGURES[-1].axes[0].get_title()
        colours = [c.lines[0].get_color() for c in FIGURES[-1].axes[0].containers]
        assert titled and colours == VARIANT_COLOURS[:3], (titled, colours)
        parser = argparse.ArgumentParser()
        add_style_arguments(parser)
        saved = dict(STYLE)
        try:
            set_style(parser, parser.parse_args(["--bare", "--format", "pdf"]))
            bare = os.path.join(tmp, "bare")
            assert draw(res, bare) == 0
            assert not [f for f in os.listdir(bare) if f.endswith(".png")], os.listdir(bare)
            assert open(os.path.join(bare, "po_fig2a.pdf"), "rb").read(5) == b"%PDF-"
            po_fig2a(res, bare)
            assert all(a.get_title() == "" for a in FIGURES[-1].axes)
        finally:
            STYLE.update(saved)
            for f in FIGURES:
                plt.close(f)
            FIGURES.clear()
        # nothing to draw: exit status 1
        assert draw(os.path.join(tmp, "empty"), os.path.join(tmp, "f2")) == 1
    print("plot_private_bo self-test: ok")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--results", default="results")
    p.add_argument("--out", default=None)
    p.add_argument("--self-test", action="store_true")
    add_style_arguments(p)
    a = p.parse_args()
    set_style(p, a)
    if a.self_test:
        return self_test()
    if not os.path.isdir(a.results):
        print(f"plot_private_bo: --results {a.results}: no such directory", file=sys.stderr)
        return 1
    return draw(a.results, a.out or os.path.join(a.results, "figures"))


if __name__ == "__main__":
    sys.exit(main())
