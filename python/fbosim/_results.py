"""fbosim.load: a run's or a sweep's result directory as pandas DataFrames, as Optuna's
trials_dataframe() gives a study's trials: one table of the points (sweep.csv) and, for every
table a run writes, one DataFrame of all points with the point's index and swept values in front.
"""
import os

from . import _check

RUN_TABLES = ("trace", "server", "summary", "timing")  # every run writes them
# The numbers as written (fbosim writes the shortest text that reads back exactly; pandas'
# default parser can miss the last bit).
EXACT = {"float_precision": "round_trip"}
OPTIONAL_TABLES = ("release",)  # only the algorithms with a final release


def _yaml(path):
    try:
        import yaml
    except ImportError:
        raise ImportError("fbosim.load reads config.resolved.yaml with PyYAML: install it "
                          "(Debian's python3-yaml, or pip install pyyaml)") from None
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a YAML mapping (a file fbosim writes holds one)")
    return data


def _run(directory):
    import pandas as pd

    out = {}
    for name in RUN_TABLES:
        out[name] = pd.read_csv(os.path.join(directory, f"{name}.csv"), **EXACT)
    for name in OPTIONAL_TABLES:
        path = os.path.join(directory, f"{name}.csv")
        if os.path.exists(path):
            out[name] = pd.read_csv(path, **EXACT)
    out["config"] = _yaml(os.path.join(directory, "config.resolved.yaml"))
    provenance = os.path.join(directory, "provenance.yaml")
    out["provenance"] = _yaml(provenance) if os.path.exists(provenance) else None
    return out


def _sweep(directory):
    import pandas as pd

    sweep_csv = os.path.join(directory, "sweep.csv")
    points = pd.read_csv(sweep_csv, **EXACT)
    for column in ("point", "dir"):
        if column not in points.columns:
            raise ValueError(f"{sweep_csv}: no column '{column}' (not a sweep.csv fbosim wrote)")
    # The swept keys: the columns between `point` and the results (sweep.csv's layout).
    first_result = points.columns.get_loc("mean_regret") if "mean_regret" in points.columns \
        else points.columns.get_loc("dir")
    keys = list(points.columns[1:first_result])
    tables = {name: [] for name in RUN_TABLES + OPTIONAL_TABLES}
    configs = {}
    root = os.path.realpath(directory)
    for row in points.itertuples(index=False):
        point, name = int(getattr(row, "point")), str(getattr(row, "dir"))
        where = os.path.realpath(os.path.join(directory, name))
        if os.path.isabs(name) or os.path.commonpath([root, where]) != root:
            raise ValueError(f"{sweep_csv}: point {point}'s dir {name!r} is not inside the sweep")
        run = _run(where)
        configs[point] = run["config"]
        for table in tables:
            if table not in run:
                continue
            frame = run[table]
            front = {"point": point, **{k: points.loc[points["point"] == point, k].iloc[0]
                                        for k in keys}}
            for i, (k, v) in enumerate(front.items()):
                frame.insert(i, k if k not in frame.columns else f"sweep.{k}", v)
            tables[table].append(frame)
    out = {"points": points}
    for table, frames in tables.items():
        if frames:
            out[table] = pd.concat(frames, ignore_index=True)
        elif table in RUN_TABLES:
            out[table] = pd.DataFrame()
    out["config"] = configs
    provenance = os.path.join(directory, "provenance.yaml")
    out["provenance"] = _yaml(provenance) if os.path.exists(provenance) else None
    out["keys"] = keys
    return out


def load(directory):
    """The results in `directory` as pandas DataFrames (read from the CSV files fbosim wrote).

    A run directory (`fbosim run --out`, `fbosim.run(out_dir=...)`): {"trace", "server",
    "summary", "timing"} (and "release" where the algorithm writes one) as DataFrames, "config"
    (config.resolved.yaml as a dict, every key with its value) and "provenance" (a dict).

    A sweep directory (`fbosim sweep --out`, `fbosim.sweep`): "points" (sweep.csv: one row per
    finished point, its swept values, final regret, epsilon, seconds and dir, as Optuna's
    trials_dataframe()), "trace", "server", "summary", "timing" (and "release"): every point's
    table stacked, with the columns `point` and the swept keys in front; "config": {point:
    its resolved config as a dict}; "keys": the swept keys; "provenance": the sweep's.

    A directory with neither summary.csv nor sweep.csv is a ValueError naming it; a missing
    file a FileNotFoundError naming it."""
    directory = _check.path("directory", directory)
    if os.path.exists(os.path.join(directory, "sweep.csv")):
        return _sweep(directory)
    if os.path.exists(os.path.join(directory, "summary.csv")):
        return _run(directory)
    if not os.path.isdir(directory):
        raise FileNotFoundError(f"directory: no such directory: {directory!r}")
    raise ValueError(f"directory: {directory!r} holds neither a run (summary.csv) nor a sweep "
                     "(sweep.csv)")
