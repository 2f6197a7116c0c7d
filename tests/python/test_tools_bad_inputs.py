#!/usr/bin/python3
"""The bad-input battery of the plotting and analysis tools (issue 24, section 5): every tool
under tools/*.py, given missing, empty, truncated or garbage CSV/YAML results, NaN or inf
where fbosim writes a number, a header that does not match, a path outside the directory it
was given, or an output it cannot write, must exit non-zero with a message naming the file
(and the line, column or value), and leave no output file (nor a temporary one) behind.

Each case copies a tree of real results (written here by the fbosim binary, tiny runs),
damages one file, runs the tool as a user would and checks its exit status, its message and
the output directory. The good cases (the same tree undamaged) must draw, so that a tool
failing on everything cannot pass.

    tests/python/test_tools_bad_inputs.py build/fbosim
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")
PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
BINARY = None  # argv[1]
FIXTURE = None  # the tree of good results, made once


# --------------------------------------------------------------------------------------------
# The results tree
# --------------------------------------------------------------------------------------------
def fbosim(*args):
    subprocess.run([BINARY, *args, "--quiet", "--force"], check=True, capture_output=True,
                   timeout=300)


def make_fixture(root):
    """dp (DP-FTS-DE, 2 runs), dp1 (1 run), nodp (FTS-DE, not private), sw (a sweep over z),
    and the results roots the figure tools read: figs/, priv/, pbo/, clm/ (+ claims.yaml)."""
    synthetic = os.path.join(ROOT, "configs", "dp_fts_de", "synthetic.yaml")
    small = ["--set", "agents.count=5", "--set", "rounds=3", "--set", "objective.grid_points=100"]
    fbosim("run", synthetic, *small, "--runs", "2", "--out", os.path.join(root, "dp"))
    fbosim("run", synthetic, *small, "--runs", "1", "--out", os.path.join(root, "dp1"))
    fbosim("run", os.path.join(ROOT, "configs", "dp_fts_de", "fig2a.yaml"), *small, "--runs",
           "2", "--out", os.path.join(root, "nodp"))
    fbosim("sweep", synthetic, *small, "--runs", "2", "--grid",
           "server.noise_multiplier=1,2", "--out", os.path.join(root, "sw"))

    def copy(src, dst):
        shutil.copytree(os.path.join(root, src), os.path.join(root, dst))
    for q in ("0.15", "0.25", "0.5"):
        copy("dp", f"figs/fig2c_q{q}")
    copy("dp", "priv/fig3_landmine_q0.35_z1")
    copy("nodp", "priv/landmine_ts")
    po = os.path.join(ROOT, "configs", "po_gp_ucb", "fig2a.yaml")
    po_small = ["--runs", "2", "--set", "rounds=3", "--set", "objective.grid_side=10"]
    fbosim("sweep", po, *po_small, "--grid", "curator.epsilon=1,3",
           "--out", os.path.join(root, "pbo", "po_fig2a_sweep"))
    fbosim("run", po, *po_small, "--set", "algorithm=gp_ucb",
           "--out", os.path.join(root, "pbo", "po_fig2a_gp_ucb"))
    fbosim("sweep", os.path.join(ROOT, "configs", "dp_bo", "synthetic.yaml"), "--runs", "2",
           "--set", "rounds=3", "--grid", "release.epsilon=0.5,2",
           "--out", os.path.join(root, "pbo", "dpbo_synthetic_sweep"))
    copy("dp", "clm/a")
    copy("nodp", "clm/b")
    with open(os.path.join(root, "clm", "claims.yaml"), "w", encoding="utf-8") as fh:
        fh.write("paper: test\nrounds: [1, 3]\nclaims:\n"
                 "  - {figure: f, text: a beats b, better: a, worse: b}\n")


# --------------------------------------------------------------------------------------------
# Damage
# --------------------------------------------------------------------------------------------
def write(path, content):
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(path, mode) as fh:
        fh.write(content)


def read(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def replace(path, old, new, count=1):
    text = read(path)
    assert old in text, f"{old!r} not in {path}"
    write(path, text.replace(old, new, count))


def set_cell(path, line, column, value):
    """Line `line` (1 = the header) of a CSV file gets `value` in `column`."""
    lines = read(path).split("\n")
    header = lines[0].split(",")
    cells = lines[line - 1].split(",")
    cells[header.index(column)] = value
    lines[line - 1] = ",".join(cells)
    write(path, "\n".join(lines))


def drop_last_line(path):
    write(path, "".join(read(path).splitlines(keepends=True)[:-1]))


def cut_last_line(path):
    """The last line cut after its second field (a truncated write)."""
    lines = read(path).splitlines(keepends=True)
    lines[-1] = ",".join(lines[-1].split(",")[:2]) + "\n"
    write(path, "".join(lines))


# --------------------------------------------------------------------------------------------
# Cases: (name, tool, args, damage(root), words the message must hold, exit status, outputs
# that must not exist). {R} stands for the case's copy of the tree.
# --------------------------------------------------------------------------------------------
S = "{R}/dp/summary.csv"
C = "{R}/dp/config.resolved.yaml"
PR = ["plot_results.py", "{R}/dp", "--out", "{R}/out/fig"]
PR_OUT = ["out"]
SW = ["plot_results.py", "{R}/sw", "--out", "{R}/out/fig"]
SWC = "{R}/sw/sweep.csv"


def j(*parts):
    return os.path.join(*parts)


CASES = [
    # plot_results: config.resolved.yaml missing, garbage, not fbosim's
    ("config missing", PR, lambda r: os.remove(j(r, "dp/config.resolved.yaml")),
     [C, "no such file"]),
    ("config binary garbage", PR, lambda r: write(j(r, "dp/config.resolved.yaml"),
                                                  b"\x89PNG\r\n\x1a\n\xff\xfe\x00"),
     [C, "not UTF-8"]),
    ("config broken YAML", PR, lambda r: write(j(r, "dp/config.resolved.yaml"),
                                               "name: x\nserver: [a\nruns: 2\n"),
     [C, "not valid YAML", "line"]),
    ("config empty", PR, lambda r: write(j(r, "dp/config.resolved.yaml"), ""), [C, "empty"]),
    ("config a scalar", PR, lambda r: write(j(r, "dp/config.resolved.yaml"), "42\n"),
     [C, "expected a mapping"]),
    ("config two documents", PR,
     lambda r: write(j(r, "dp/config.resolved.yaml"),
                     read(j(r, "dp/config.resolved.yaml")) + "---\nruns: 9\n"),
     [C, "single document", "another document"]),
    ("config without algorithm", PR,
     lambda r: replace(j(r, "dp/config.resolved.yaml"), "algorithm: dp_fts_de\n", ""),
     [C, "no key 'algorithm'"]),
    ("config runs not a number", PR,
     lambda r: replace(j(r, "dp/config.resolved.yaml"), "runs: 2\n", "runs: two\n"),
     [C, "runs", "'two'"]),
    ("config key twice", PR,
     lambda r: replace(j(r, "dp/config.resolved.yaml"), "runs: 2\n", "runs: 2\nruns: 3\n"),
     [C, "'runs' is given twice"]),
    ("config a directory", PR, lambda r: (os.remove(j(r, "dp/config.resolved.yaml")),
                                          os.mkdir(j(r, "dp/config.resolved.yaml"))),
     [C, "a directory"]),
    # summary.csv: empty, truncated, garbage, NaN/inf, header mismatch
    ("summary empty", PR, lambda r: write(j(r, "dp/summary.csv"), ""), [S, "empty file"]),
    ("summary header only", PR,
     lambda r: write(j(r, "dp/summary.csv"), read(j(r, "dp/summary.csv")).split("\n")[0] + "\n"),
     [S, "no rows"]),
    ("summary last line cut", PR, lambda r: cut_last_line(j(r, "dp/summary.csv")),
     [S, "line 5", "fields"]),
    ("summary last row missing", PR, lambda r: drop_last_line(j(r, "dp/summary.csv")),
     [S, "ends at round 2", "rounds: 3"]),
    ("summary nan mean_best_f", PR, lambda r: set_cell(j(r, "dp/summary.csv"), 3, "mean_best_f",
                                                       "nan"),
     [S, "line 3", "mean_best_f", "'nan'"]),
    ("summary inf epsilon", PR, lambda r: set_cell(j(r, "dp/summary.csv"), 5, "epsilon", "inf"),
     [S, "line 5", "epsilon", "'inf'"]),
    ("summary negative epsilon", PR,
     lambda r: set_cell(j(r, "dp/summary.csv"), 4, "epsilon", "-1"),
     [S, "line 4", "epsilon", "'-1'"]),
    ("summary empty mean_best_f", PR,
     lambda r: set_cell(j(r, "dp/summary.csv"), 2, "mean_best_f", ""),
     [S, "line 2", "mean_best_f", "empty cell"]),
    ("summary regret empty in one row", PR,
     lambda r: set_cell(j(r, "dp/summary.csv"), 4, "mean_regret", ""),
     [S, "line 4", "mean_regret", "some rows only"]),
    ("summary se empty with two runs", PR,
     lambda r: set_cell(j(r, "dp/summary.csv"), 3, "se_best_f", ""),
     [S, "line 3", "se_best_f", "empty cell"]),
    ("summary negative se", PR, lambda r: set_cell(j(r, "dp/summary.csv"), 3, "se_regret", "-0.5"),
     [S, "line 3", "se_regret", "'-0.5'"]),
    ("summary text in n", PR, lambda r: set_cell(j(r, "dp/summary.csv"), 2, "n", "ten"),
     [S, "line 2", "'n'", "'ten'"]),
    ("summary rounds out of order", PR, lambda r: set_cell(j(r, "dp/summary.csv"), 3, "round", "7"),
     [S, "line 3", "round", "'7'"]),
    ("summary delta empty in one row", PR,
     lambda r: set_cell(j(r, "dp/summary.csv"), 2, "delta", ""),
     [S, "line 2", "delta", "some rows only"]),
    ("summary without epsilon", PR,
     lambda r: replace(j(r, "dp/summary.csv"), ",epsilon,", ",eps,"),
     [S, "no column 'epsilon'"]),
    ("summary column twice", PR,
     lambda r: replace(j(r, "dp/summary.csv"), ",delta,", ",epsilon,"),
     [S, "'epsilon' appears twice"]),
    ("summary not UTF-8", PR,
     lambda r: write(j(r, "dp/summary.csv"), read(j(r, "dp/summary.csv")).encode() + b"\xff\n"),
     [S, "not UTF-8"]),
    ("summary NUL byte", PR,
     lambda r: write(j(r, "dp/summary.csv"), read(j(r, "dp/summary.csv")) + "1,\0\n"),
     [S, "line"]),
    ("summary one-run NaN mean", ["plot_results.py", "{R}/dp1", "--out", "{R}/out/fig"],
     lambda r: set_cell(j(r, "dp1/summary.csv"), 5, "mean_regret", "NaN"),
     ["{R}/dp1/summary.csv", "line 5", "mean_regret", "'NaN'"]),
    # sweep.csv: rows whose dir points outside, garbage, header mismatch
    ("sweep dir outside", SW, lambda r: replace(j(r, "sw/sweep.csv"), ",server.noise_multiplier=1\n",
                                                ",../dp\n"),
     [SWC, "line 2", "'../dp'", "outside"]),
    ("sweep dir absolute", SW, lambda r: replace(j(r, "sw/sweep.csv"), ",server.noise_multiplier=2\n",
                                                 f",{j(r, 'dp')}\n"),
     [SWC, "line 3", "absolute path"]),
    ("sweep dir empty", SW, lambda r: replace(j(r, "sw/sweep.csv"), ",server.noise_multiplier=2\n",
                                              ",\n"),
     [SWC, "line 3", "empty directory name"]),
    ("sweep point a link outside", SW,
     lambda r: (shutil.rmtree(j(r, "sw/server.noise_multiplier=1")),
                os.symlink(j(r, "nodp"), j(r, "sw/server.noise_multiplier=1"))),
     [SWC, "line 2", "outside"]),
    ("sweep point missing", SW, lambda r: shutil.rmtree(j(r, "sw/server.noise_multiplier=2")),
     ["{R}/sw/server.noise_multiplier=2", "no such result directory"]),
    ("sweep point summary NaN", SW,
     lambda r: set_cell(j(r, "sw/server.noise_multiplier=2/summary.csv"), 4, "se_best_f", "nan"),
     ["{R}/sw/server.noise_multiplier=2/summary.csv", "line 4", "se_best_f"]),
    ("sweep without dir", SW, lambda r: replace(j(r, "sw/sweep.csv"), ",dir\n", ",folder\n"),
     [SWC, "no column 'dir'"]),
    ("sweep empty", SW, lambda r: write(j(r, "sw/sweep.csv"), ""), [SWC, "empty file"]),
    ("sweep extra field", SW,
     lambda r: replace(j(r, "sw/sweep.csv"), ",server.noise_multiplier=2\n",
                       ",server.noise_multiplier=2,x\n"),
     [SWC, "line 3", "fields"]),
    # arguments and outputs
    ("vs-epsilon of a non-private run", ["plot_results.py", "{R}/nodp", "--vs-epsilon", "--out",
                                         "{R}/out/fig"], None,
     ["{R}/nodp", "not a private run"]),
    ("vs-epsilon of an accountant not recorded",
     ["plot_results.py", "{R}/sw", "--vs-epsilon", "--accountant", "pld", "--out", "{R}/out/fig"],
     None, ["{R}/sw/server.noise_multiplier=1/summary.csv", "no epsilon_pld column"]),
    ("vs-epsilon series key unknown",
     ["plot_results.py", "{R}/sw", "--vs-epsilon", "--series", "server.nope", "--out",
      "{R}/out/fig"], None, ["config.resolved.yaml", "server.nope"]),
    ("input missing", ["plot_results.py", "{R}/nothing", "--out", "{R}/out/fig"], None,
     ["{R}/nothing", "no such directory"]),
    ("where without =", ["plot_results.py", "{R}/dp", "--where", "runs", "--out", "{R}/out/fig"],
     None, ["--where", "'runs'"], 2),
    ("out is a directory", ["plot_results.py", "{R}/dp", "--out", "{R}/dp"], None,
     ["--out", "{R}/dp", "not a directory"]),
    ("out under a file", ["plot_results.py", "{R}/dp", "--out", "{R}/dp/summary.csv/fig"], None,
     ["{R}/dp/summary.csv", "not a directory"], 1, ["dp/summary.csv/fig.png"]),
    ("pdf cannot be written", PR, lambda r: os.makedirs(j(r, "out/fig.pdf")),
     ["{R}/out/fig.pdf", "is a directory"], 1, ["out/fig.png"]),
    # plot_figures: a damaged result is named, not drawn, exit 1; the figure is not written
    ("figures: summary NaN",
     ["plot_figures.py", "--results", "{R}/figs", "--only", "fig2c", "--out", "{R}/out"],
     lambda r: set_cell(j(r, "figs/fig2c_q0.25/summary.csv"), 3, "mean_regret", "nan"),
     ["{R}/figs/fig2c_q0.25/summary.csv", "line 3", "mean_regret", "'nan'"]),
    ("figures: config missing",
     ["plot_figures.py", "--results", "{R}/figs", "--only", "fig2c", "--out", "{R}/out"],
     lambda r: os.remove(j(r, "figs/fig2c_q0.5/config.resolved.yaml")),
     ["{R}/figs/fig2c_q0.5/config.resolved.yaml", "no such file"]),
    ("figures: results missing",
     ["plot_figures.py", "--results", "{R}/nothing", "--out", "{R}/out"], None,
     ["{R}/nothing", "no such directory"]),
    ("figures: out under a file",
     ["plot_figures.py", "--results", "{R}/figs", "--only", "fig2c", "--out",
      "{R}/dp/summary.csv/x"], None, ["{R}/dp/summary.csv", "not a directory"]),
    ("figures: negative rounds",
     ["plot_figures.py", "--results", "{R}/figs", "--rounds", "-1", "--out", "{R}/out"], None,
     ["--rounds", "-1"], 2),
    # plot_privacy: a damaged point stops the tool before anything is written
    ("privacy: summary garbage",
     ["plot_privacy.py", "--results", "{R}/priv", "--out", "{R}/out", "--binary", "{B}"],
     lambda r: write(j(r, "priv/fig3_landmine_q0.35_z1/summary.csv"), "\x00\x01garbage\n"),
     ["{R}/priv/fig3_landmine_q0.35_z1/summary.csv"]),
    ("privacy: point not private",
     ["plot_privacy.py", "--results", "{R}/priv", "--out", "{R}/out", "--binary", "{B}"],
     lambda r: (shutil.rmtree(j(r, "priv/fig3_landmine_q0.35_z1")),
                shutil.copytree(j(r, "nodp"), j(r, "priv/fig3_landmine_q0.35_z1"))),
     ["{R}/priv/fig3_landmine_q0.35_z1/summary.csv", "not a private run"]),
    ("privacy: q not a number",
     ["plot_privacy.py", "--results", "{R}/priv", "--out", "{R}/out", "--binary", "{B}"],
     lambda r: replace(j(r, "priv/fig3_landmine_q0.35_z1/config.resolved.yaml"),
                       "sampling_rate: 0.25", "sampling_rate: lots"),
     ["{R}/priv/fig3_landmine_q0.35_z1/config.resolved.yaml", "server.sampling_rate", "'lots'"]),
    ("privacy: baseline truncated",
     ["plot_privacy.py", "--results", "{R}/priv", "--out", "{R}/out", "--binary", "{B}"],
     lambda r: cut_last_line(j(r, "priv/landmine_ts/summary.csv")),
     ["{R}/priv/landmine_ts/summary.csv", "fields"]),
    ("privacy: zero rounds",
     ["plot_privacy.py", "--results", "{R}/priv", "--out", "{R}/out", "--binary", "{B}",
      "--rounds", "0"], None, ["--rounds", "0"], 2),
    # plot_private_bo
    ("private_bo: release NaN",
     ["plot_private_bo.py", "--results", "{R}/pbo", "--out", "{R}/out"],
     lambda r: set_cell(j(r, "pbo/dpbo_synthetic_sweep/release.epsilon=2/release.csv"), 2, "f",
                        "nan"),
     ["{R}/pbo/dpbo_synthetic_sweep/release.epsilon=2/release.csv", "line 2", "'f'", "'nan'"]),
    ("private_bo: release missing",
     ["plot_private_bo.py", "--results", "{R}/pbo", "--out", "{R}/out"],
     lambda r: os.remove(j(r, "pbo/dpbo_synthetic_sweep/release.epsilon=0.5/release.csv")),
     ["{R}/pbo/dpbo_synthetic_sweep/release.epsilon=0.5/release.csv", "no such file"]),
    ("private_bo: release without sensitivity",
     ["plot_private_bo.py", "--results", "{R}/pbo", "--out", "{R}/out"],
     lambda r: set_cell(j(r, "pbo/dpbo_synthetic_sweep/release.epsilon=2/release.csv"), 2,
                        "sensitivity", ""),
     ["{R}/pbo/dpbo_synthetic_sweep/release.epsilon=2/release.csv", "line 2", "sensitivity"]),
    ("private_bo: sweep dir outside",
     ["plot_private_bo.py", "--results", "{R}/pbo", "--out", "{R}/out"],
     lambda r: replace(j(r, "pbo/dpbo_synthetic_sweep/sweep.csv"), ",release.epsilon=2\n",
                       ",../../dp\n"),
     ["{R}/pbo/dpbo_synthetic_sweep/sweep.csv", "line 3", "outside"]),
    ("private_bo: sweep inf regret",
     ["plot_private_bo.py", "--results", "{R}/pbo", "--out", "{R}/out"],
     lambda r: set_cell(j(r, "pbo/po_fig2a_sweep/sweep.csv"), 2, "mean_regret", "inf"),
     ["{R}/pbo/po_fig2a_sweep/sweep.csv", "line 2", "mean_regret", "'inf'"]),
    ("private_bo: sweep without epsilon",
     ["plot_private_bo.py", "--results", "{R}/pbo", "--out", "{R}/out"],
     lambda r: replace(j(r, "pbo/po_fig2a_sweep/sweep.csv"), "curator.epsilon", "eps"),
     ["{R}/pbo/po_fig2a_sweep/sweep.csv", "no column 'curator.epsilon'"]),
    ("private_bo: baseline config garbage",
     ["plot_private_bo.py", "--results", "{R}/pbo", "--out", "{R}/out"],
     lambda r: write(j(r, "pbo/po_fig2a_gp_ucb/config.resolved.yaml"), "{{{{"),
     ["{R}/pbo/po_fig2a_gp_ucb/config.resolved.yaml", "not valid YAML"]),
    ("private_bo: results missing",
     ["plot_private_bo.py", "--results", "{R}/nothing", "--out", "{R}/out"], None,
     ["{R}/nothing", "no such directory"]),
    # claims
    ("claims: trace NaN", ["claims.py", "--results", "{R}/clm", "--claims", "{R}/clm/claims.yaml",
                           "--out", "{R}/out/F.md"],
     lambda r: set_cell(j(r, "clm/a/trace.csv"), 7, "best_f", "nan"),
     ["{R}/clm/a/trace.csv", "line 7", "best_f", "'nan'"]),
    ("claims: trace truncated", ["claims.py", "--results", "{R}/clm", "--claims",
                                 "{R}/clm/claims.yaml", "--out", "{R}/out/F.md"],
     lambda r: cut_last_line(j(r, "clm/b/trace.csv")), ["{R}/clm/b/trace.csv", "fields"]),
    ("claims: regret empty in one row", ["claims.py", "--results", "{R}/clm", "--claims",
                                         "{R}/clm/claims.yaml", "--out", "{R}/out/F.md"],
     lambda r: set_cell(j(r, "clm/a/trace.csv"), 4, "regret", ""),
     ["{R}/clm/a/trace.csv", "line 4", "regret", "some rows only"]),
    ("claims: config missing", ["claims.py", "--results", "{R}/clm", "--claims",
                                "{R}/clm/claims.yaml", "--out", "{R}/out/F.md"],
     lambda r: os.remove(j(r, "clm/b/config.resolved.yaml")),
     ["{R}/clm/b/config.resolved.yaml", "no such file"]),
    ("claims: file garbage", ["claims.py", "--results", "{R}/clm", "--claims",
                              "{R}/clm/claims.yaml", "--out", "{R}/out/F.md"],
     lambda r: write(j(r, "clm/claims.yaml"), "paper: [x\n"),
     ["{R}/clm/claims.yaml", "not valid YAML", "line"]),
    ("claims: claim without worse", ["claims.py", "--results", "{R}/clm", "--claims",
                                     "{R}/clm/claims.yaml", "--out", "{R}/out/F.md"],
     lambda r: replace(j(r, "clm/claims.yaml"), ", worse: b", ""),
     ["{R}/clm/claims.yaml", "claims[0]", "worse"]),
    ("claims: bad rounds", ["claims.py", "--results", "{R}/clm", "--claims",
                            "{R}/clm/claims.yaml", "--out", "{R}/out/F.md"],
     lambda r: replace(j(r, "clm/claims.yaml"), "[1, 3]", "[3, 1]"),
     ["{R}/clm/claims.yaml", "rounds", "[3, 1]"]),
    ("claims: result outside", ["claims.py", "--results", "{R}/clm", "--claims",
                                "{R}/clm/claims.yaml", "--out", "{R}/out/F.md"],
     lambda r: replace(j(r, "clm/claims.yaml"), "worse: b", "worse: ../nodp"),
     ["{R}/clm/claims.yaml", "claims[0]", "'../nodp'", "outside"]),
    ("claims: out under a file", ["claims.py", "--results", "{R}/clm", "--claims",
                                  "{R}/clm/claims.yaml", "--out", "{R}/dp/summary.csv/F.md"],
     None, ["{R}/dp/summary.csv", "not a directory"]),
]

# The good runs: the same trees undamaged must draw (rc 0) and write these outputs.
GOOD = [
    (["plot_results.py", "{R}/dp", "{R}/nodp", "{R}/dp1", "--out", "{R}/out/fig"],
     ["out/fig.png", "out/fig.pdf"]),
    (["plot_results.py", "{R}/sw", "{R}/dp1", "--vs-epsilon", "--out", "{R}/out/eps"],
     ["out/eps.png", "out/eps.pdf"]),
    (["plot_figures.py", "--results", "{R}/figs", "--only", "fig2c", "--out", "{R}/out"],
     ["out/fig2c.png", "out/fig2c.pdf"]),
    (["plot_privacy.py", "--results", "{R}/priv", "--out", "{R}/out", "--binary", "{B}"],
     ["out/fig3a_tight.png", "out/privacy_vs_rounds.pdf"]),
    (["plot_private_bo.py", "--results", "{R}/pbo", "--out", "{R}/out"],
     ["out/po_fig2a.png", "out/dpbo_synthetic.pdf"]),
    (["claims.py", "--results", "{R}/clm", "--claims", "{R}/clm/claims.yaml", "--out",
      "{R}/out/F.md"], ["out/F.md"]),
]


class Done:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def run_tool(root, args):
    """The tool as a user runs it: its own process, Debian's python3."""
    argv = [PYTHON, os.path.join(TOOLS, args[0])] + \
        [a.replace("{R}", root).replace("{B}", BINARY) for a in args[1:]]
    return subprocess.run(argv, capture_output=True, text=True, cwd=root, timeout=300)


def run_in_process(root, args):
    """The tool's main() in this process (no interpreter and matplotlib start per case: the
    battery takes seconds, not minutes), with its argv, working directory, stdout and stderr;
    an uncaught exception propagates (a traceback is a failure)."""
    import contextlib
    import importlib
    import io
    if TOOLS not in sys.path:
        sys.path.insert(0, TOOLS)
    module = importlib.import_module(args[0][:-len(".py")])
    out, err = io.StringIO(), io.StringIO()
    saved_argv, saved_cwd = sys.argv, os.getcwd()
    sys.argv = [args[0]] + [a.replace("{R}", root).replace("{B}", BINARY) for a in args[1:]]
    os.chdir(root)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = module.main() or 0
            except SystemExit as e:  # sys.exit("message") prints it and exits 1
                rc = 1 if isinstance(e.code, str) else (e.code or 0)
                if isinstance(e.code, str):
                    err.write(e.code + "\n")
    finally:
        sys.argv = saved_argv
        os.chdir(saved_cwd)
        import matplotlib.pyplot as plt
        plt.close("all")
    return Done(rc, out.getvalue(), err.getvalue())


# The examples (and one case of each tool) also run as their own process: the exit
# status and message a user sees.
OWN_PROCESS = {"config missing", "sweep dir outside", "summary nan mean_best_f",
               "vs-epsilon of a non-private run", "figures: summary NaN",
               "privacy: point not private", "private_bo: release NaN", "claims: trace NaN",
               "where without ="}


def leftovers(root, before):
    """Files created under root by the tool (outputs, temporaries)."""
    now = set()
    for d, _, files in os.walk(root):
        now.update(os.path.join(d, f) for f in files)
        now.add(d)
    return sorted(now - before)


def tree(root):
    out = set()
    for d, _, files in os.walk(root):
        out.update(os.path.join(d, f) for f in files)
        out.add(d)
    return out


class Battery(unittest.TestCase):
    def case_root(self):
        tmp = tempfile.mkdtemp(prefix="fbosim-bad-")
        self.addCleanup(shutil.rmtree, tmp, True)
        root = os.path.join(tmp, "r")
        shutil.copytree(FIXTURE, root, symlinks=True)
        return root

    def test_good_inputs_draw(self):
        for args, outputs in GOOD:
            with self.subTest(args[0]):
                root = self.case_root()
                done = run_tool(root, args)
                self.assertEqual(done.returncode, 0, done.stderr)
                for out in outputs:
                    self.assertGreater(os.path.getsize(os.path.join(root, out)), 0, out)
                hidden = [p for p in leftovers(root, set()) if ".tmp" in os.path.basename(p)]
                self.assertEqual(hidden, [], "temporary files left")

    def test_bad_inputs_are_refused_by_name(self):
        for case in CASES:
            name, args, damage, words = case[:4]
            rc = case[4] if len(case) > 4 else 1
            absent = case[5] if len(case) > 5 else []
            with self.subTest(name):
                root = self.case_root()
                if damage:
                    damage(root)
                before = tree(root)
                done = (run_tool if name in OWN_PROCESS else run_in_process)(root, args)
                message = done.stderr + done.stdout
                self.assertEqual(done.returncode, rc, f"{name}: exit {done.returncode}\n{message}")
                self.assertNotIn("Traceback", message, name)
                for w in words:
                    self.assertIn(w.replace("{R}", root).lower(), message.lower(), name)
                self.assertEqual(leftovers(root, before), [], f"{name}: files left behind")
                for out in absent:
                    self.assertFalse(os.path.exists(os.path.join(root, out)), out)


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else
                             os.path.join(ROOT, "build", "fbosim"))
    with tempfile.TemporaryDirectory(prefix="fbosim-fixture-") as fixture:
        FIXTURE = os.path.join(fixture, "r")
        make_fixture(FIXTURE)
        unittest.main(verbosity=1)
