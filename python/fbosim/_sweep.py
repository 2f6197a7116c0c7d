"""fbosim.sweep: the `fbosim sweep` command, run from Python (the same program and code path as
the command line: its resume, growing runs, jobs and shards), and its results read back with
fbosim.load."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

from . import _check
from ._results import load

MAX_RUNS = 100000  # the config key `runs` (kMaxCount)
MAX_THREADS = 4096  # --jobs and --threads (kMaxThreads)


def executable():
    """The fbosim program: $FBOSIM_BIN; the one installed with the package (fbosim/bin/fbosim,
    `pip install`); the build tree's (build/fbosim beside build/python/fbosim, for
    PYTHONPATH=build/python); else `fbosim` on PATH. RuntimeError naming the places looked in."""
    here = os.path.dirname(os.path.abspath(__file__))
    places = [os.environ.get("FBOSIM_BIN"), os.path.join(here, "bin", "fbosim"),
              os.path.join(here, "..", "..", "fbosim"), shutil.which("fbosim")]
    for place in places:
        if place and os.path.isfile(place) and os.access(place, os.X_OK):
            return os.path.abspath(place)
    raise RuntimeError("fbosim.sweep runs the fbosim program, which is not in "
                       f"$FBOSIM_BIN, {os.path.join(here, 'bin', 'fbosim')}, "
                       f"{os.path.normpath(os.path.join(here, '..', '..', 'fbosim'))} or on "
                       "PATH: set FBOSIM_BIN=/path/to/build/fbosim")


def _value(value):
    """A grid value as the text of --grid (YAML 1.2: true/false, numbers, strings as given)."""
    if isinstance(value, str):
        return value
    return json.dumps(value.item() if hasattr(value, "item") else value)


def _grid_args(grid):
    if not isinstance(grid, dict):
        raise TypeError(f"grid must be a dict {{key: [values]}}, got {_check.show(grid)}")
    args = []
    for key, values in grid.items():
        if not isinstance(key, str) or not key or "=" in key:
            raise ValueError(f"grid: a key must be a config key (a string without '='), got "
                             f"{_check.show(key)}")
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            values = [values]
        texts = [_value(v) for v in values]
        if not texts:
            raise ValueError(f"grid[{key!r}] has no values")
        for text in texts:
            if "," in text or not text:
                raise ValueError(f"grid[{key!r}]: the value {text!r} cannot be a --grid value "
                                 "(empty, or with a comma)")
        args += ["--grid", f"{key}={','.join(texts)}"]
    return args


def sweep(config, grid=None, out=None, runs=None, overrides=(), seed=None, jobs=None,
          threads=None, shard=None, force=False, progress=True, allow_exec=False):
    """Runs `fbosim sweep` and returns fbosim.load(out): "points" (sweep.csv, a row per point),
    the points' "summary", "trace", "server" and "timing" stacked with `point` and the swept
    keys in front, "config" ({point: resolved config}) and "provenance".

    config: a path, or a dict of the config's keys (as fbosim.run). grid: {key: [values]} (each
    key a --grid; values as YAML: numbers, true/false, strings); None uses the config's
    `sweep:` section alone. out: the sweep directory (required: the same call again skips the
    finished points; a larger `runs` grows each point, reusing its runs, as the command does).
    overrides: "key=value" strings or a dict, at every point (--set). runs, seed, jobs,
    threads: None keeps the config's or the command's default. shard: "I/K". progress: the
    command's progress lines on stderr (False: --quiet). A bad argument raises TypeError or
    ValueError; a sweep that fails raises RuntimeError with fbosim's message (file, key,
    value); Ctrl-C stops the sweep within a second, keeping the finished points for the same
    call again, and raises KeyboardInterrupt. allow_exec: consent for a config FILE that names a
    program or module to run (--allow-exec; docs/USER_GUIDE.md, "A config is code"); a dict
    config needs none (you wrote it)."""
    if isinstance(config, dict):
        with tempfile.TemporaryDirectory(prefix="fbosim-config-") as tmp:
            path = os.path.join(tmp, "experiment.yaml")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(config, f)  # JSON is YAML 1.2
            return sweep(path, grid, out, runs, overrides, seed, jobs, threads, shard, force,
                         progress, allow_exec=True)
    config = _check.path("config", config)
    if out is None:
        raise TypeError("sweep() needs out=DIRECTORY (the sweep's directory: the same call "
                        "again resumes it)")
    out = _check.path("out", out)
    args = [executable(), "sweep", config, "--out", out]
    if grid is not None:
        args += _grid_args(grid)
    if isinstance(overrides, dict):
        overrides = [f"{k}={_value(v)}" for k, v in overrides.items()]
    for item in _check.overrides("overrides", overrides):
        args += ["--set", item]
    if runs is not None:
        args += ["--runs", str(_check.integer("runs", runs, 1, MAX_RUNS))]
    if seed is not None:
        args += ["--seed", str(_check.integer("seed", seed, 0, 2**64 - 1))]
    if jobs is not None:
        args += ["--jobs", str(_check.integer("jobs", jobs, 1, MAX_THREADS))]
    if threads is not None:
        args += ["--threads", str(_check.integer("threads", threads, 1, MAX_THREADS))]
    if shard is not None:
        if not isinstance(shard, str):
            raise TypeError(f"shard must be a string 'I/K', got {_check.show(shard)}")
        args += ["--shard", shard]
    if _check.boolean("force", force):
        args.append("--force")
    if not _check.boolean("progress", progress):
        args.append("--quiet")
    if _check.boolean("allow_exec", allow_exec):
        args.append("--allow-exec")
    _run(args, out)
    return load(out)


def _run(args, out):
    """Runs the command, relaying its stderr line by line (so that a notebook shows it too);
    RuntimeError with its message when it fails."""
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            errors="replace")
    lines = []
    try:
        for line in proc.stderr:
            lines.append(line)
            sys.stderr.write(line)
            sys.stderr.flush()
        status = proc.wait()
    except KeyboardInterrupt:
        # A terminal's Ctrl-C reached the program too; a notebook's interrupt did not.
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        raise KeyboardInterrupt(f"fbosim.sweep stopped; the finished points are kept in {out}: "
                                "the same call again runs only the others") from None
    finally:
        proc.stderr.close()
    if status != 0:
        errors = [line.strip() for line in lines if line.startswith("fbosim: error")]
        message = "; ".join(errors) or "".join(lines[-5:]).strip() or f"exit status {status}"
        raise (ValueError if status == 2 else RuntimeError)(
            f"fbosim sweep failed ({message}); the command: {' '.join(args)}")
