"""fbosim from Python: the privacy accountants and the experiment runner of the C++ simulator.

    import fbosim
    fbosim.privacy.epsilon(q=0.25, z=1.0, steps=range(1, 61), agents=200)   # numpy array
    fbosim.privacy.calibrate(target_epsilon=3.0, q=0.25, steps=60, agents=200)
    tables = fbosim.run("configs/dp_fts_de/synthetic.yaml", overrides=["rounds=10"], runs=1)
    tables["summary"]                                                          # pandas DataFrame

`run` returns the trace, server, summary and timing tables as pandas DataFrames, read from the
CSV files the run wrote (the bytes `fbosim run` writes). Errors in a config raise ValueError
naming the file, the key and the value; a bad argument raises TypeError (wrong type) or
ValueError (wrong value) naming the argument and the value. Ctrl-C stops a run (or a long
privacy computation) within a second, as it stops the fbosim command: KeyboardInterrupt says
which finished runs were kept for a resume.
"""
import os
import tempfile

from . import _check
from . import _core
from . import privacy  # noqa: F401

__all__ = ["run", "privacy", "version"]
version = _core.version
MAX_RUNS = 100000  # the config key `runs` (kMaxCount)
MAX_THREADS = 4096  # `fbosim run --threads` (kMaxThreads)


def run(config, overrides=(), runs=None, seed=None, threads=None, out_dir=None, force=False):
    """Runs an experiment config and returns {"trace", "server", "summary", "timing"} as pandas
    DataFrames, plus "info" (a dict: name, out_dir, runs, rounds, agents, seconds, epsilon,
    delta). overrides: a list of "key=value" strings as for --set (not one string). runs
    (1..100000), seed (0..2^64 - 1) and threads (1..4096): None keeps the config's (threads:
    all cores). With out_dir the files stay there (as `fbosim run --out`); otherwise they are
    written to a temporary directory and removed. A bad argument raises TypeError or
    ValueError naming it and its value."""
    import pandas as pd

    config = _check.path("config", config)
    sets = _check.overrides("overrides", overrides)
    if runs is not None:
        runs = _check.integer("runs", runs, 1, MAX_RUNS)
    if seed is not None:
        seed = _check.integer("seed", seed, 0, 2**64 - 1)
    if threads is not None:
        threads = _check.integer("threads", threads, 1, MAX_THREADS)
    if out_dir is not None:
        out_dir = _check.path("out_dir", out_dir)
    force = _check.boolean("force", force)

    def go(directory):
        info = _core.run(config, sets, runs, seed, threads, directory, force)
        tables = {name: pd.read_csv(os.path.join(directory, f"{name}.csv"))
                  for name in ("trace", "server", "summary", "timing")}
        tables["info"] = info
        return tables

    if out_dir is not None:
        return go(out_dir)
    with tempfile.TemporaryDirectory(prefix="fbosim-") as tmp:
        tables = go(os.path.join(tmp, "out"))
        tables["info"]["out_dir"] = None
        return tables
