#!/usr/bin/python3
"""Privacy-loss figures for the accountants (issue: privacy accounting beyond the paper).

1. <results>/figures/privacy_vs_rounds.{png,pdf}: epsilon after t rounds, t = 1..60, for the paper's
   synthetic setting (N = 200, q = 0.25, z = 1) and landmine setting (N = 29, q = 0.35, z = 1),
   delta = N^-1.1, under every accountant (moments = the paper's, rdp, pld, gdp).
2. <results>/figures/fig3a_tight.{png,pdf}: the privacy-utility plot of Fig. 3a (landmine) with the
   epsilon of each (q, z) point under the moments accountant and under pld, when the results of
   the Fig. 3a grid exist (results/fig3_landmine_q<q>_z<z>/summary.csv, as tools/reproduce.sh
   writes them); otherwise that panel is skipped with a message.
   Each point's epsilon is the one its results recorded: the last row of summary.csv, column
   `epsilon` (the config's server.accountant) or `epsilon_<accountant>` (server.accountants).
   An accountant the results did not record is computed for that result's own q, z, rounds,
   delta (the `delta` column; older results: server.delta or agents.count^-1.1), sampling and
   N, with a line saying so; never for fixed settings.

Epsilons not recorded come from `fbosim privacy --format csv` (build/fbosim, or $FBOSIM_BIN):
one process per curve (`--steps 1:60` prints every round; pld, ~10 ms a query, 12 counts
over the rounds and the last), all run at once.
Every result read is checked (tools/fbosim_results.py): a missing, empty, truncated or damaged
summary.csv or config.resolved.yaml of a grid point or baseline, a NaN or inf where fbosim
writes a number, a point that is not private, or a failing `fbosim privacy` is an error
naming the file (or the command), exit 1, and nothing written: both figures are drawn first,
then written under temporary names and renamed. Only python3-matplotlib, python3-pandas and
python3-yaml are needed. --self-test checks the recorded values are the ones drawn (no binary
needed).
"""
import argparse
import csv
import glob
import io
import os
import subprocess
import sys
import tempfile

# matplotlib, pandas and fbosim_results are imported by load_plotting(), after the privacy
# processes were started, so that the imports (about 0.6 s) overlap their work.
plt = pd = results_io = plots = None


class ToolError(Exception):
    """An input or output this tool cannot use (the message names it); exit 1."""


def load_plotting(results=True):
    """matplotlib, pandas and fbosim_results (the checked readers, the atomic writer)."""
    global plt, pd, results_io, plots
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot
    plt = pyplot
    import pandas
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import fbosim_plots
    import fbosim_results
    pd, results_io, plots = pandas, fbosim_results, fbosim_plots

ACCOUNTANTS = ["moments", "rdp", "pld", "gdp"]
# Line styles per accountant; the colours are fbosim_plots.COLOURS' (one mapping for every tool).
# (pld differs from moments by its dash-dot and markers so that the figure survives greyscale.)
LINESTYLE = {"moments": "-", "rdp": "--", "pld": "-.", "gdp": ":"}
MARKER = {"moments": None, "rdp": None, "pld": "s", "gdp": None}
LABEL = {"moments": "moments (paper)", "rdp": "RDP (improved conversion)",
         "pld": "PLD (upper bound)", "gdp": "GDP (CLT approximation)"}
SETTINGS = [("synthetic", 200, 0.25, 1.0), ("landmine", 29, 0.35, 1.0)]
# Fig. 3a grid: z at q = 0.35 and q at z = 1 (DP-FTS-DE Fig. 3a).
GRID = [(0.35, z) for z in (1, 1.6, 2, 3, 4)] + [(q, 1) for q in (0.1, 0.15, 0.2, 0.25)]


def curve_command(binary, accountant, q, z, steps, agents):
    """One `fbosim privacy` process for every step count of a curve (--steps FIRST:LAST)."""
    return [binary, "privacy", "--accountant", accountant, "--q", str(q), "--z", str(z),
            "--steps", steps, "--agents", str(agents), "--format", "csv"]


def start_all(commands):
    """Starts the commands at once; finish_all collects them."""
    return commands, {k: subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          text=True) for k, c in commands.items()}


def finish_all(started):
    """{key: [(steps, epsilon), ...]} in step order; ToolError naming the command when one
    failed or printed anything but finite epsilons."""
    commands, procs = started
    out = {}
    for k, p in procs.items():
        stdout, stderr = p.communicate()
        command = " ".join(commands[k])
        if p.returncode != 0:
            raise ToolError(f"{command} failed (exit {p.returncode}): {stderr.strip()}")
        out[k] = parse_privacy_csv(stdout, command)
    return out


def parse_privacy_csv(text, command):
    """[(steps, epsilon), ...] of `fbosim privacy --format csv`'s output, every epsilon finite."""
    rows = []
    try:
        for r in csv.DictReader(io.StringIO(text)):
            steps, eps = int(r["steps"]), float(r["epsilon"])
            if not eps >= 0 or eps == float("inf"):
                raise ValueError(f"epsilon {r['epsilon']}")
            rows.append((steps, eps))
    except (KeyError, TypeError, ValueError) as e:
        raise ToolError(f"{command}: unexpected output ({e}): {text[:200]!r}") from None
    if not rows:
        raise ToolError(f"{command}: printed no epsilon: {text[:200]!r}")
    return rows


PENDING = []  # (figure, out_dir, name) drawn, written by write_pending()


def save(fig, out_dir, name):
    """Keeps name.png and name.pdf for write_pending(), which writes every figure at once."""
    PENDING.append((fig, out_dir, name))


def write_pending():
    """Every pending figure's PNG and PDF, under temporary names, renamed once all are
    complete (nothing is left if one fails); the figures are closed."""
    outputs = []
    for fig, out_dir, name in PENDING:
        for ext in plots.STYLE["formats"]:
            outputs.append((os.path.join(out_dir, f"{name}.{ext}"),
                            lambda temp, fig=fig, ext=ext: fig.savefig(
                                temp, format=ext, dpi=120, bbox_inches="tight")))
    written = [(out_dir, name) for _, out_dir, name in PENDING]
    try:
        results_io.write_all(outputs)
    finally:
        drop_pending()
    for out_dir, name in written:
        print(f"wrote {out_dir}/{name}." + " and .".join(plots.STYLE["formats"]))


def drop_pending():
    for fig, _, _ in PENDING:
        plt.close(fig)
    PENDING.clear()


def start_privacy_vs_rounds(binary, rounds):
    # pld costs ~10 ms per step count (a fresh discretisation per query): 12 counts spread over
    # the rounds and the last are drawn for it (its curve is smooth in T), every round for the
    # others.
    def steps(acc):
        return f"1:{rounds}:{max(1, rounds // 12)},{rounds}" if acc == "pld" else f"1:{rounds}"
    return start_all({(name, acc): curve_command(binary, acc, q, z, steps(acc), n)
                      for name, n, q, z in SETTINGS for acc in ACCOUNTANTS})


def privacy_vs_rounds(started, out_dir):
    fig, axes = plt.subplots(1, len(SETTINGS), figsize=plots.figure_size((10, 3.8)))
    curves = finish_all(started)
    for ax, (name, n, q, z) in zip(axes, SETTINGS):
        drawn = []
        for acc in ACCOUNTANTS:
            ts, eps = zip(*curves[(name, acc)])
            ax.plot(ts, eps, color=plots.COLOURS[acc], linestyle=LINESTYLE[acc],
                    marker=MARKER[acc], markersize=3, label=LABEL[acc])
            drawn.extend(eps)
        plots.set_title(ax, f"{name}: N = {n}, q = {q}, z = {z}\ndelta = N^-1.1")
        plots.epsilon_axis(ax, drawn, axis="y")
        ax.set_xlabel("rounds T")
        ax.set_ylabel("privacy loss epsilon")
        ax.grid(alpha=0.3)
    plots.place_legend(axes[0], "best")
    fig.tight_layout()
    save(fig, out_dir, "privacy_vs_rounds")


def recorded_point(directory, compute):
    """{accountant: epsilon}, error, se and the settings of one result directory (its
    summary.csv and config.resolved.yaml checked; ResultError naming a bad one).

    Epsilons the results recorded are taken as they are; `compute(accountant, settings)` gives
    the others (settings: q, z, rounds, delta, sampling, agents of this result)."""
    config_path = os.path.join(directory, "config.resolved.yaml")
    config = results_io.read_config(config_path)
    summary = results_io.read_summary(os.path.join(directory, "summary.csv"), config, config_path)
    last = summary.iloc[-1]

    def setting(key, check, what):
        value = config.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not check(value):
            raise results_io.ResultError(f"{config_path}: {key} must be {what}, got {value!r}")
        return value
    agents = int(setting("agents.count", lambda v: v == int(v) and v >= 1, "an integer >= 1"))
    if "delta" in summary.columns:
        if not summary["delta"].notna().all():
            raise results_io.ResultError(f"{os.path.join(directory, 'summary.csv')}: no delta: "
                                         "not a private run, but a point of the privacy plot")
        delta = float(last["delta"])
    elif isinstance(config.get("server.delta"), (int, float)):
        delta = float(config["server.delta"])
    else:  # results written before delta was recorded: `~` meant N^-1.1
        delta = agents ** -1.1
    settings = {"q": setting("server.sampling_rate", lambda v: 0 < v <= 1, "in (0, 1]"),
                "z": setting("server.noise_multiplier", lambda v: v > 0, "> 0"),
                "rounds": int(last["round"]), "delta": delta, "agents": agents,
                "sampling": config.get("server.sampling", "poisson")}
    eps = {config.get("server.accountant", "moments"): float(last["epsilon"])}
    for column in summary.columns:
        if column.startswith("epsilon_"):
            eps[column[len("epsilon_"):]] = float(last[column])
    for acc in ("moments", "pld"):
        if acc not in eps:
            print(f"fig3a_tight: {directory}: no {acc} epsilon recorded; computed for its "
                  f"q = {settings['q']}, z = {settings['z']}, T = {settings['rounds']}, "
                  f"delta = {delta:g}", file=sys.stderr)
            eps[acc] = compute(acc, settings)
    return eps, 1 - float(last["mean_best_f"]), float(last["se_best_f"]), settings


def fig3a_rows(results, compute):
    rows, rounds = [], set()
    for q, z in GRID:
        directory = os.path.join(results, f"fig3_landmine_q{q:g}_z{z:g}")
        if not os.path.exists(os.path.join(directory, "summary.csv")):
            continue
        eps, error, se, settings = recorded_point(directory, compute)
        rounds.add(settings["rounds"])
        for acc in ("moments", "pld"):
            rows.append((acc, settings["q"], settings["z"], eps[acc], error, se))
    return pd.DataFrame(rows, columns=["accountant", "q", "z", "epsilon", "error", "se"]), rounds


def fig3a_tight(compute, results, out_dir):
    df, rounds = fig3a_rows(results, compute)
    if df.empty:
        print(f"fig3a_tight: skipped, no results/fig3_landmine_q*_z* under {results}",
              file=sys.stderr)
        return None
    fig, ax = plt.subplots(figsize=plots.figure_size((5, 3.8)))
    for acc, marker in (("moments", "o"), ("pld", "s")):
        d = df[df.accountant == acc].sort_values("epsilon")
        ax.errorbar(d.epsilon, d.error, yerr=d.se, fmt=marker, color=plots.COLOURS[acc],
                    label=LABEL[acc], capsize=2)
    # The non-private baselines as horizontal lines, as in the paper, in their methods' colours.
    # (Line styles as in plot_figures.py's Fig. 3a.)
    for name, colour, style in (("landmine_ts", plots.COLOURS["TS"], "--"),
                                ("landmine_fts", plots.COLOURS["FTS"], "-."),
                                ("landmine_fts_de", plots.COLOURS["FTS-DE"], ":")):
        path = os.path.join(results, name, "summary.csv")
        if os.path.exists(path):
            config_path = os.path.join(results, name, "config.resolved.yaml")
            summary = results_io.read_summary(path, results_io.read_config(config_path),
                                              config_path)
            ax.axhline(1 - summary.iloc[-1]["mean_best_f"], color=colour,
                       linestyle=style, linewidth=1,
                       label={"ts": "TS", "fts": "FTS", "fts_de": "FTS-DE"}[
                           name.replace("landmine_", "")])
    after = f"{rounds.pop()} rounds" if len(rounds) == 1 else "the last round"
    ax.set_xlabel(f"privacy loss epsilon after {after} (as recorded)")
    ax.set_ylabel("best validation error (1 - AUC)")
    plots.apply_scale(ax, plots.utility_scale("linear"), values=df.error)
    plots.epsilon_axis(ax, list(df.epsilon))
    plots.set_title(ax, "Fig. 3a (landmine) with the tight epsilon")
    ax.grid(alpha=0.3)
    plots.place_legend(ax, "outside")
    save(fig, out_dir, "fig3a_tight")
    return df


def binary_epsilon(binary):
    def compute(accountant, s):
        command = [binary, "privacy", "--accountant", accountant, "--q", str(s["q"]),
                   "--z", str(s["z"]), "--steps", str(s["rounds"]), "--agents",
                   str(s["agents"]), "--delta", repr(s["delta"]), "--sampling",
                   s["sampling"], "--format", "csv"]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise ToolError(f"{' '.join(command)} failed (exit {done.returncode}): "
                            f"{done.stderr.strip()}")
        return parse_privacy_csv(done.stdout, " ".join(command))[0][1]
    return compute


def self_test():
    """Results recording epsilons unlike any fixed setting (T = 7, N = 13, delta = 0.01): the
    figure must draw the recorded values and compute only the missing ones, for that result."""
    calls = []

    def compute(accountant, s):
        calls.append((accountant, s))
        return 0.25

    with tempfile.TemporaryDirectory() as root:
        points = {(0.35, 1): (1.234, 0.5), (0.1, 1): (0.75, None)}
        for (q, z), (eps, pld) in points.items():
            d = os.path.join(root, f"fig3_landmine_q{q:g}_z{z:g}")
            os.makedirs(d)
            with open(os.path.join(d, "summary.csv"), "w", encoding="utf-8") as fh:
                fh.write("round,mean_regret,se_regret,mean_best_f,se_best_f,epsilon,delta,n"
                         + (",epsilon_pld" if pld is not None else "") + "\n")
                for t in range(8):
                    fh.write(f"{t},,,0.9,0.01,{eps * t / 7},0.01,13"
                             + (f",{pld * t / 7}" if pld is not None else "") + "\n")
            with open(os.path.join(d, "config.resolved.yaml"), "w", encoding="utf-8") as fh:
                fh.write(f"rounds: 7\nagents:\n  count: 13\nserver:\n  sampling_rate: {q}\n"
                         f"  noise_multiplier: {z}\n  delta: 0.01\n  accountant: moments\n")
        df = fig3a_tight(compute, root, os.path.join(root, "figures"))
        # Issue 28 sec. 5: each accountant in its one colour (fbosim_plots.COLOURS), a title
        # unless --no-title / --bare.
        ax = PENDING[0][0].axes[0]
        import matplotlib.colors as mc
        colours = {c.get_label(): mc.to_hex(c.lines[0].get_color()) for c in ax.containers}
        style_ok = colours == {LABEL[a]: plots.COLOURS[a].lower() for a in ("moments", "pld")}
        style_ok = style_ok and ax.get_title() != ""
        plots.STYLE["title"] = False
        fig3a_tight(compute, root, os.path.join(root, "bare"))
        style_ok = style_ok and PENDING[1][0].axes[0].get_title() == ""
        plots.STYLE["title"] = True
        calls.clear()
        drop_pending()
        df = fig3a_tight(compute, root, os.path.join(root, "figures"))
        write_pending()
        ok = df is not None and os.path.exists(os.path.join(root, "figures", "fig3a_tight.png"))
        got = {(r.accountant, r.q): r.epsilon for r in df.itertuples()} if ok else {}
        ok = ok and abs(got[("moments", 0.35)] - 1.234) < 1e-12
        ok = ok and abs(got[("pld", 0.35)] - 0.5) < 1e-12
        ok = ok and abs(got[("moments", 0.1)] - 0.75) < 1e-12
        ok = ok and got[("pld", 0.1)] == 0.25
        ok = ok and len(calls) == 1 and calls[0][0] == "pld"
        ok = ok and calls[0][1] == {"q": 0.1, "z": 1, "rounds": 7, "delta": 0.01, "agents": 13,
                                    "sampling": "poisson"}
    ok = ok and style_ok
    print("plot_privacy self-test: " + ("ok" if ok else f"FAILED: {got}, {calls}, "
                                        f"colours and title {'ok' if style_ok else 'wrong'}"))
    return 0 if ok else 1


def need_debian_python():
    """Re-runs the script with Debian's python3 when this one lacks matplotlib or pandas (a
    pyenv or venv python3), before anything was started; else says what to install."""
    import importlib.util
    if all(importlib.util.find_spec(m) for m in ("matplotlib", "pandas")):
        return
    debian = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(debian) and os.access(debian, os.X_OK):
        os.execv(debian, [debian] + sys.argv)
    sys.exit("plot_privacy: matplotlib or pandas is missing; install Debian's "
             "python3-matplotlib and python3-pandas (tools/setup.sh does) and use /usr/bin/python3")


def main():
    need_debian_python()
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", default="results")
    p.add_argument("--out", default=None, help="default: RESULTS/figures")
    p.add_argument("--rounds", type=int, default=60,
                   help="rounds of the privacy_vs_rounds panel (the paper's settings)")
    p.add_argument("--binary", default=os.environ.get("FBOSIM_BIN", "build/fbosim"))
    p.add_argument("--self-test", action="store_true")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import fbosim_style  # no matplotlib: the import still overlaps the privacy processes
    fbosim_style.add_style_arguments(p)
    a = p.parse_args()
    fbosim_style.set_style(p, a)
    if a.self_test:
        load_plotting()
        sys.exit(self_test())
    a.out = a.out or os.path.join(a.results, "figures")
    if a.rounds < 1:
        p.error(f"--rounds must be >= 1, got {a.rounds}")
    if not os.access(a.binary, os.X_OK):
        sys.exit(f"plot_privacy: no fbosim binary at {a.binary} (build first or set FBOSIM_BIN)")
    started = start_privacy_vs_rounds(a.binary, a.rounds)
    has_results = bool(glob.glob(os.path.join(a.results, "fig3_landmine_q*_z*")))
    load_plotting(has_results)
    try:
        # Both figures are drawn before either is written: a bad result writes nothing.
        if has_results:
            fig3a_tight(binary_epsilon(a.binary), a.results, a.out)
        else:
            print(f"fig3a_tight: skipped, no results/fig3_landmine_q*_z* under {a.results}",
                  file=sys.stderr)
        privacy_vs_rounds(started, a.out)
        write_pending()
    except (ToolError, results_io.ResultError) as e:
        drop_pending()
        for proc in started[1].values():
            proc.kill()
            proc.wait()
        sys.exit(f"plot_privacy: {e}")


if __name__ == "__main__":
    main()
