"""fbosim from Python: the privacy accountants and the experiment runner of the C++ simulator.

    import fbosim
    fbosim.privacy.epsilon(q=0.25, z=1.0, steps=range(1, 61), agents=200)   # numpy array
    fbosim.privacy.calibrate(target_epsilon=3.0, q=0.25, steps=60, agents=200)
    tables = fbosim.run("configs/dp_fts_de/synthetic.yaml", overrides=["rounds=10"], runs=1)
    tables["summary"]                                                          # pandas DataFrame

    # split your data among the agents: agent n's row indices (iid, dirichlet or shards)
    parts = fbosim.partition(y_train, agents=10, scheme="dirichlet", alpha=0.5, seed=0)

    # your own objective (the `python` family): f(x, agent, seed) -> y or (y, f)
    tables = fbosim.run({"algorithm": "dp_fts_de", "objective": {"inputs": 2},
                         "exploration": {"subregions": 2}},
                        overrides={"rounds": 10}, objective=my_function)

    # a sweep (the fbosim sweep command: the same call again resumes it, more runs grow it),
    # its results as DataFrames (a row per point, and every point's tables), and a figure
    s = fbosim.sweep("configs/dp_fts_de/synthetic.yaml", grid={"server.noise_multiplier": [1, 2]},
                     runs=3, out="results/z_sweep")
    s["points"][["server.noise_multiplier", "mean_regret", "epsilon"]]
    fbosim.load("results/z_sweep")["summary"]                 # the same, read back later
    fbosim.plot("results/z_sweep", labels=["z = 1", "z = 2"])  # PNG and PDF; returns the PNG

`run` returns the trace, server, summary and timing tables as pandas DataFrames, read from the
CSV files the run wrote (the bytes `fbosim run` writes). Errors in a config raise ValueError
naming the file, the key and the value; a bad argument raises TypeError (wrong type) or
ValueError (wrong value) naming the argument and the value. Ctrl-C stops a run (or a long
privacy computation) within a second, as it stops the fbosim command: KeyboardInterrupt says
which finished runs were kept for a resume.
"""
import json
import os
import tempfile

import numpy as np

from . import _check
from . import _objectives
from . import _core
from . import _progress
from . import privacy  # noqa: F401
from ._plot import plot
from ._results import load
from ._sweep import sweep

__all__ = ["run", "sweep", "load", "plot", "partition", "privacy", "version"]
version = _core.version
MAX_RUNS = 100000  # the config key `runs` (kMaxCount)
MAX_THREADS = 4096  # `fbosim run --threads` (kMaxThreads)


def run(config, overrides=(), runs=None, seed=None, threads=None, out_dir=None, force=False,
        objective=None, progress=True, allow_exec=False):
    """Runs an experiment config and returns {"trace", "server", "summary", "timing"} as pandas
    DataFrames, plus "info" (a dict: name, out_dir, runs, rounds, agents, seconds, epsilon,
    delta, resumed_runs: finished runs reused from an interrupted call, server_stop: the first
    round whose messages the server did not aggregate under server.budget or server.stop_p, else
    None). config: a path, or a
    dict of the config's keys (nested or dotted, as in YAML). overrides: a list of "key=value"
    strings as for --set (not one string), or a dict {key: value}. objective: a callable
    f(x, agent, seed) returning y or (y, f), evaluated for every query (the `python` objective
    family: x is a list of objective.inputs floats in [0, 1]; the GIL serialises the agents'
    evaluations, see docs/OBJECTIVES.md). config.resolved.yaml records it as module:function
    when its module's import finds it again; otherwise (a lambda, a closure, a function of
    __main__) provenance.yaml says the run cannot be reproduced from its files alone. runs (1..100000), seed (0..2^64 - 1) and threads
    (1..4096): None keeps the config's (threads: all cores). With out_dir the files stay there
    (as `fbosim run --out`); otherwise they are written to a temporary directory and removed.
    progress: a tqdm bar (a line on stderr without tqdm) once the run has taken a second; False
    for none. A bad argument raises TypeError or ValueError naming it and its value. Ctrl-C
    raises KeyboardInterrupt within a second, keeping the finished runs in out_dir for a resume
    (the same call again). allow_exec: consent for a config FILE whose objective runs a program
    or imports a module (as `fbosim run --allow-exec`, or FBOSIM_ALLOW_EXEC=1; docs/USER_GUIDE.md,
    "A config is code"); without it such a file raises ValueError naming the key and what would
    run. A dict config and objective= need none (you wrote them)."""
    import pandas as pd

    if isinstance(config, dict):
        with tempfile.TemporaryDirectory(prefix="fbosim-config-") as tmp:
            path = os.path.join(tmp, "experiment.yaml")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(config, f)  # JSON is YAML 1.2
            return run(path, overrides, runs, seed, threads, out_dir, force, objective, progress,
                       allow_exec=True)
    config = _check.path("config", config)
    if isinstance(overrides, dict):
        for key in overrides:
            if not isinstance(key, str):
                raise TypeError(f"overrides: keys must be strings, got {_check.show(key)}")
        overrides = [f"{k}={_yaml_value(v)}" for k, v in overrides.items()]
    sets = _check.overrides("overrides", overrides)
    if objective is not None:
        if not callable(objective):
            raise TypeError(f"objective must be callable f(x, agent, seed), got "
                            f"{_check.show(objective)}")
        importable = _objectives.importable_name(objective)
        if importable is not None:  # config.resolved.yaml records it: `fbosim run` re-runs it
            return run(config, list(sets) + ["objective.family=python",
                                             f"objective.callable={importable}"],
                       runs, seed, threads, out_dir, force, progress=progress,
                       allow_exec=allow_exec)
        name = _objectives.add(objective)
        try:
            return run(config, list(sets) + ["objective.family=python",
                                             f"objective.callable={_objectives.PREFIX}{name}"],
                       runs, seed, threads, out_dir, force, progress=progress,
                       allow_exec=allow_exec)
        finally:
            _objectives.remove(name)
    if runs is not None:
        runs = _check.integer("runs", runs, 1, MAX_RUNS)
    if seed is not None:
        seed = _check.integer("seed", seed, 0, 2**64 - 1)
    if threads is not None:
        threads = _check.integer("threads", threads, 1, MAX_THREADS)
    if out_dir is not None:
        out_dir = _check.path("out_dir", out_dir)
    force = _check.boolean("force", force)
    progress = _check.boolean("progress", progress)
    allow_exec = _check.boolean("allow_exec", allow_exec)

    def go(directory):
        bar = _progress.reporter(progress)
        try:
            info = _core.run(config, sets, runs, seed, threads, directory, force,
                             bar.update if bar else None, allow_exec)
        finally:
            if bar:
                bar.close()
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


PARTITION_SCHEMES = ("iid", "dirichlet", "shards")


def partition(labels, agents, scheme="iid", alpha=0.5, shards=2, min_size=1, seed=0):
    """Splits one dataset's rows among `agents` agents and returns agent n's row indices (a list
    of numpy int64 arrays, each ascending; every row in exactly one), for a user's objective
    f(x, agent, seed) to train or score on its agent's rows. labels: one label per row (a 1-D
    sequence or array of integers, bools or strings; iid looks only at its length). scheme:
    "iid" (a random permutation cut into sizes differing by at most 1), "dirichlet" (each
    label's rows split by proportions ~ Dir(alpha) over the agents, Hsu et al. 2019 as Flower's
    DirichletPartitioner; redrawn at most 10 times until every agent has min_size rows, else
    RuntimeError) or "shards" (rows sorted by label, cut into agents * shards equal shards, dealt
    at random, `shards` to an agent: McMahan et al. 2017). The same arguments give the same
    split (seed: 0..2^64 - 1). A bad argument raises TypeError or ValueError naming it."""
    arr = np.asarray(labels)
    if arr.ndim != 1:
        raise ValueError(f"labels must be one label per row (1-D), got shape {arr.shape}")
    if arr.size == 0 or arr.dtype.kind in "iub":  # [] is float64 to numpy
        codes = arr.astype(np.int64)
    elif arr.dtype.kind in "USO":
        try:
            codes = np.unique(arr, return_inverse=True)[1].astype(np.int64)
        except TypeError:
            raise TypeError(f"labels must be integers or strings, got {_check.show(labels)}") \
                from None
    else:
        raise TypeError(f"labels must be integers or strings, got dtype {arr.dtype} "
                        f"({_check.show(labels)})")
    agents = _check.integer("agents", agents, 1, _check.INT_MAX)
    scheme = _check.choice("scheme", scheme, PARTITION_SCHEMES)
    alpha = _check.real("alpha", alpha, 0, lo_open=True)
    shards = _check.integer("shards", shards, 1, _check.INT_MAX)
    min_size = _check.integer("min_size", min_size, 0, _check.INT_MAX)
    seed = _check.integer("seed", seed, 0, 2**64 - 1)
    parts = _core.partition(codes.tolist(), agents, scheme, alpha, shards, min_size, seed)
    return [np.asarray(p, dtype=np.int64) for p in parts]


def _yaml_value(value):
    """A Python value as the text of --set (YAML 1.2: true/false, numbers, quoted strings)."""
    if isinstance(value, str):
        return value
    return json.dumps(value)
