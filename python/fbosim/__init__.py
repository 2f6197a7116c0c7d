"""fbosim from Python: the privacy accountants and the experiment runner of the C++ simulator.

    import fbosim
    fbosim.privacy.epsilon(q=0.25, z=1.0, steps=range(1, 61), agents=200)   # numpy array
    fbosim.privacy.calibrate(target_epsilon=3.0, q=0.25, steps=60, agents=200)
    tables = fbosim.run("configs/dp_fts_de/synthetic.yaml", overrides=["rounds=10"], runs=1)
    tables["summary"]                                                          # pandas DataFrame

`run` returns the trace, server, summary and timing tables as pandas DataFrames, read from the
CSV files the run wrote (the bytes `fbosim run` writes). Errors in a config raise ValueError
naming the file, the key and the value. Ctrl-C stops a run (or a long privacy computation)
within a second, as it stops the fbosim command: KeyboardInterrupt says which finished runs
were kept for a resume.
"""
import os
import tempfile

from . import _core
from . import privacy  # noqa: F401

__all__ = ["run", "privacy", "version"]
version = _core.version


def run(config, overrides=(), runs=None, seed=None, threads=None, out_dir=None, force=False):
    """Runs an experiment config and returns {"trace", "server", "summary", "timing"} as pandas
    DataFrames, plus "info" (a dict: name, out_dir, runs, rounds, agents, seconds, epsilon,
    delta). overrides: "key=value" strings as for --set. With out_dir the files stay there (as
    `fbosim run --out`); otherwise they are written to a temporary directory and removed."""
    import pandas as pd

    def go(directory):
        info = _core.run(os.fspath(config), [str(o) for o in overrides], runs or 0,
                         -1 if seed is None else int(seed), threads or 0, directory, force)
        tables = {name: pd.read_csv(os.path.join(directory, f"{name}.csv"))
                  for name in ("trace", "server", "summary", "timing")}
        tables["info"] = info
        return tables

    if out_dir is not None:
        return go(os.fspath(out_dir))
    with tempfile.TemporaryDirectory(prefix="fbosim-") as tmp:
        tables = go(os.path.join(tmp, "out"))
        tables["info"]["out_dir"] = None
        return tables
