"""Reading fbosim's result files strictly, and writing the tools' outputs atomically: the one
input/output path of tools/plot_results.py, plot_figures.py, plot_privacy.py,
plot_private_bo.py and claims.py.

Every file a tool reads is checked before a number of it is used: it exists, is UTF-8 text,
its header names every column needed (each once), every line has the header's number of
fields, and the cells that must be numbers are. A problem is a ResultError naming the file,
and where it applies the line, the column and the value; the tools print it and exit 1.

What an empty cell (NaN) means. fbosim writes a number that does not exist as an empty cell
and never writes `nan` or `inf` (a non-finite epsilon is refused before anything is written).
So an empty cell is legitimate only where fbosim leaves one:
  - mean_regret, se_regret (summary.csv) and regret (trace.csv): empty in every row where the
    optimum is unknown (real data); never empty in some rows only;
  - se_regret, se_best_f: empty where there is no standard error, i.e. fewer than two runs
    (or pairs); a run directory whose config says runs >= 2 must have them;
  - delta (summary.csv): empty in every row of a non-private run;
  - release.csv's cells that do not apply to a row (x0.. of a best-value release, the
    mechanism's epsilon of the non-private reference).
Any other empty cell, and any `nan`, `inf` or non-number, stands for a failed computation or
a damaged file, and is an error naming it.

Outputs (figures, tables) are written to a hidden temporary name beside their final one and
renamed into place once complete (atomic_outputs), so a tool that fails leaves no half-written
file, and no directory it created, behind.

Uses the standard library, Debian's python3-pandas, python3-numpy and python3-yaml.
"""
import contextlib
import csv
import math
import os

import numpy as np
import pandas as pd
import yaml


class ResultError(Exception):
    """A result file (or an output path) the tools cannot use; the message names it."""


# --------------------------------------------------------------------------------------------
# Files and paths
# --------------------------------------------------------------------------------------------
def read_text(path):
    """The whole file as text; ResultError naming it when missing, unreadable or not UTF-8."""
    try:
        with open(path, encoding="utf-8-sig") as fh:  # a byte-order mark (a spreadsheet's) is fine
            return fh.read()
    except FileNotFoundError:
        raise ResultError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ResultError(f"{path}: a directory, not a file") from None
    except UnicodeDecodeError as e:
        raise ResultError(f"{path}: not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset "
                          f"{e.start}): a damaged or foreign file") from None
    except OSError as e:
        raise ResultError(f"{path}: cannot read: {e.strerror or e}") from None


def inside(base, relative, what):
    """base/relative, refused (ResultError naming `what`) unless it stays inside base once
    links are resolved: a sweep's point directories, a claim's result names."""
    if not isinstance(relative, str) or not relative.strip():
        raise ResultError(f"{what}: empty directory name")
    if os.path.isabs(relative):
        raise ResultError(f"{what}: '{relative}' is an absolute path; it must name a directory "
                          f"inside {base}")
    path = os.path.join(base, relative)
    real_base, real = os.path.realpath(base), os.path.realpath(path)
    if os.path.commonpath([real_base, real]) != real_base or real == real_base:
        raise ResultError(f"{what}: '{relative}' points outside {base}")
    return path


# --------------------------------------------------------------------------------------------
# CSV tables
# --------------------------------------------------------------------------------------------
class Table:
    """A CSV file as strings, its structure checked; number() converts and checks a column.

    required: the columns that must be in the header. Rows keep their line numbers, so every
    message names the line of the file."""

    def __init__(self, path, required=(), allow_no_rows=False):
        self.path = path
        text = read_text(path)
        if not text.strip():
            raise ResultError(f"{path}: empty file")
        rows, lines = [], []
        try:
            reader = csv.reader(text.splitlines(keepends=True), strict=True)
            for row in reader:
                rows.append(row)
                lines.append(reader.line_num)
        except csv.Error as e:
            raise ResultError(f"{path}: line {reader.line_num + 1}: not CSV ({e})") from None
        header = rows[0]
        if any(not c.strip() for c in header):
            raise ResultError(f"{path}: line 1: an empty column name in the header {header}")
        seen = set()
        for c in header:
            if c in seen:
                raise ResultError(f"{path}: line 1: column '{c}' appears twice")
            seen.add(c)
        missing = [c for c in required if c not in seen]
        if missing:
            raise ResultError(f"{path}: no column {', '.join(repr(c) for c in missing)} "
                              f"(header: {','.join(header)})")
        for row, line in zip(rows[1:], lines[1:]):
            if len(row) != len(header):
                raise ResultError(f"{path}: line {line}: {len(row)} fields, the header has "
                                  f"{len(header)}: a truncated or damaged file")
        if len(rows) < 2 and not allow_no_rows:
            raise ResultError(f"{path}: a header and no rows")
        self.header = header
        self.lines = lines[1:]
        self.frame = pd.DataFrame(rows[1:], columns=header, dtype=object)

    def __len__(self):
        return len(self.frame)

    def has(self, column):
        return column in self.header

    def where(self, row, column, value, why):
        return ResultError(f"{self.path}: line {self.lines[row]}, column '{column}': {why}, "
                           f"got '{value}'")

    def text(self, column):
        return self.frame[column].to_numpy()

    def number(self, column, empty="never", lo=None, hi=None, integer=False, lo_open=False):
        """The column as floats (NaN for an empty cell), checked: every cell a finite number
        (integral with integer), in [lo, hi] ((lo, hi] with lo_open); empty cells allowed in
        every row or none (empty="all-or-none"), anywhere (empty="allowed") or nowhere."""
        raw = self.frame[column].astype(str).str.strip()
        blank = (raw == "").to_numpy()
        values = pd.to_numeric(raw.where(~blank, "0"), errors="coerce").to_numpy(dtype=float)
        for i in np.flatnonzero(~blank & ~np.isfinite(values)):
            raise self.where(i, column, raw.iloc[i], "not a finite number")
        if blank.any():
            if empty == "never":
                i = int(np.flatnonzero(blank)[0])
                raise self.where(i, column, "", "an empty cell where a number must be")
            if empty == "all-or-none" and not blank.all():
                i = int(np.flatnonzero(blank)[0])
                raise self.where(i, column, "", "empty in some rows only (all or none)")
        values[blank] = np.nan
        keep = ~blank
        if integer:
            for i in np.flatnonzero(keep & (values != np.round(values))):
                raise self.where(i, column, raw.iloc[i], "not an integer")
        if lo is not None:
            low = values <= lo if lo_open else values < lo
            for i in np.flatnonzero(keep & low):
                raise self.where(i, column, raw.iloc[i],
                                 f"must be {'>' if lo_open else '>='} {lo:g}")
        if hi is not None:
            for i in np.flatnonzero(keep & (values > hi)):
                raise self.where(i, column, raw.iloc[i], f"must be <= {hi:g}")
        return values


# summary.csv: the columns every reader needs.
SUMMARY_COLUMNS = ("round", "mean_regret", "se_regret", "mean_best_f", "se_best_f", "epsilon",
                   "n")


def read_summary(path, config=None, config_path=None):
    """summary.csv as a DataFrame of floats, checked as fbosim_results' docstring says: rounds
    0, 1, ..., T (T = the config's `rounds`, so a truncated file is caught), mean_best_f and
    epsilon finite everywhere, the regret columns all empty (optimum unknown) or all numbers,
    standard errors empty only without two runs, delta all empty (not private) or in (0, 1]."""
    t = Table(path, SUMMARY_COLUMNS)
    config = config or {}
    out = {"round": t.number("round", lo=0, integer=True)}
    rounds = out["round"]
    for i, r in enumerate(rounds):
        if r != i:
            raise t.where(i, "round", f"{r:g}", f"rounds must run 0, 1, 2, ... one row each; "
                          f"expected {i}")
    want = config.get("rounds")
    if isinstance(want, int) and not isinstance(want, bool) and rounds[-1] != want:
        raise ResultError(f"{path}: ends at round {rounds[-1]:g}, but "
                          f"{config_path or 'its config'} says rounds: {want} (a truncated "
                          "file, or the results of another config)")
    runs = config.get("runs")
    one_run = not isinstance(runs, int) or runs < 2
    out["mean_regret"] = t.number("mean_regret", empty="all-or-none")
    known = not np.isnan(out["mean_regret"]).all()
    out["se_regret"] = t.number("se_regret", empty="allowed" if one_run or not known
                                else "never", lo=0)
    if not known and not np.isnan(out["se_regret"]).all():
        i = int(np.flatnonzero(~np.isnan(out["se_regret"]))[0])
        raise t.where(i, "se_regret", t.text("se_regret")[i],
                      "a standard error without a mean_regret")
    out["mean_best_f"] = t.number("mean_best_f")
    out["se_best_f"] = t.number("se_best_f", empty="allowed" if one_run else "never", lo=0)
    out["n"] = t.number("n", lo=1, integer=True)
    for column in t.header:
        if column.startswith("epsilon"):
            out[column] = t.number(column, lo=0)
    if t.has("delta"):
        out["delta"] = t.number("delta", empty="all-or-none", lo=0, hi=1, lo_open=True)
    return pd.DataFrame(out)


# --------------------------------------------------------------------------------------------
# YAML: config.resolved.yaml and the tools' own YAML inputs
# --------------------------------------------------------------------------------------------
def scalar(text):
    """A plain YAML scalar as fbosim's configs mean it: true/false, an integer, a float (1e-5
    included, unlike PyYAML's YAML 1.1 resolver), else the text."""
    t = text.strip()
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            value = conv(t)
        except ValueError:
            continue
        if isinstance(value, float) and not math.isfinite(value):
            return t  # 'nan', 'inf': text here; a number check refuses them where one is needed
        return value
    return t


def _node_value(node, path):
    if isinstance(node, yaml.ScalarNode):
        return node.value if node.style in ("'", '"') else scalar(node.value)
    if isinstance(node, yaml.SequenceNode):
        return tuple(_node_value(n, path) for n in node.value)
    return _mapping(node, path, "")


def _mapping(node, path, prefix, flat=None):
    """A mapping node as {"a.b": value}: nested mappings are joined with dots."""
    flat = {} if flat is None else flat
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + 1
        if not isinstance(key_node, yaml.ScalarNode) or not key_node.value.strip():
            raise ResultError(f"{path}: line {line}: a key must be a non-empty name")
        key = prefix + key_node.value
        if isinstance(value_node, yaml.MappingNode) and value_node.value:
            _mapping(value_node, path, key + ".", flat)
            continue
        if key in flat:
            raise ResultError(f"{path}: line {line}: key '{key}' is given twice")
        flat[key] = {} if isinstance(value_node, yaml.MappingNode) else \
            _node_value(value_node, path)
    return flat


def read_yaml(path):
    """A YAML file's single document (a mapping) as plain Python values (dicts, lists, scalars
    as safe_load gives them); ResultError naming the file and line otherwise."""
    text = read_text(path)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ResultError(f"{path}: not valid YAML: {_yaml_problem(e)}") from None
    if not isinstance(data, dict):
        raise ResultError(f"{path}: expected a mapping (key: value lines), got "
                          f"{'nothing' if data is None else type(data).__name__}")
    return data


def read_config(path):
    """config.resolved.yaml flattened to {"server.clip_norm": 11, ...}: lists become tuples,
    quoted scalars stay text, plain ones become booleans and numbers as fbosim reads them.
    ResultError naming the file (and line) when missing, not YAML, several documents, not a
    mapping, or a key twice."""
    text = read_text(path)
    try:
        node = yaml.compose(text, Loader=yaml.BaseLoader)
    except yaml.YAMLError as e:
        raise ResultError(f"{path}: not valid YAML: {_yaml_problem(e)}") from None
    if node is None:
        raise ResultError(f"{path}: empty (no configuration in it)")
    if not isinstance(node, yaml.MappingNode):
        raise ResultError(f"{path}: line {node.start_mark.line + 1}: expected a mapping of "
                          "configuration keys, got a "
                          f"{'list' if isinstance(node, yaml.SequenceNode) else 'scalar'}")
    return _mapping(node, path, "")


def _yaml_problem(e):
    mark = getattr(e, "problem_mark", None)
    what = getattr(e, "problem", None) or str(e).splitlines()[0]
    context = getattr(e, "context", None)
    what = f"{context}, {what}" if context else what
    return f"line {mark.line + 1}, column {mark.column + 1}: {what}" if mark else what


# --------------------------------------------------------------------------------------------
# Outputs
# --------------------------------------------------------------------------------------------
def check_output_stem(stem, what="--out"):
    """A path stem for STEM.png / STEM.pdf: not empty, not a directory."""
    if not stem or stem.endswith(("/", os.sep)) or os.path.isdir(stem):
        raise ResultError(f"{what} '{stem}': a file stem is needed (STEM writes STEM.png and "
                          "STEM.pdf), not a directory")
    return stem


@contextlib.contextmanager
def atomic_outputs(paths):
    """Yields one temporary path per final path (same directory, hidden name); when the block
    ends without an exception they are renamed into place, else removed together with the
    directories made for them. OSError becomes ResultError naming the path."""
    made, temps, done = [], [], False
    try:
        for path in paths:
            directory = os.path.dirname(os.path.abspath(path))
            _make_directories(directory, made)
            if os.path.isdir(path):
                raise ResultError(f"{path}: is a directory; cannot write a file there")
            temps.append(os.path.join(directory, f".{os.path.basename(path)}.tmp{os.getpid()}"))
        yield temps
        for temp, path in zip(temps, paths):
            os.replace(temp, path)
        done = True
    except OSError as e:
        raise ResultError(f"cannot write {e.filename or paths[0]}: {e.strerror or e}") from None
    finally:
        if not done:
            for temp in temps:
                with contextlib.suppress(OSError):
                    os.remove(temp)
            for d in reversed(made):
                with contextlib.suppress(OSError):
                    os.rmdir(d)


def _make_directories(directory, made):
    missing = []
    d = directory
    while not os.path.exists(d):
        missing.append(d)
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    for d in reversed(missing):
        try:
            os.mkdir(d)
        except OSError as e:
            raise ResultError(f"cannot create the directory {d}: {e.strerror or e}") from None
        made.append(d)
    if not os.path.isdir(directory):
        raise ResultError(f"{directory}: not a directory; cannot write into it")


def write_all(outputs):
    """outputs: [(path, write)], write(temporary_path) writing one file. Every file is written
    under a temporary name first and all are renamed once all are complete: a tool that fails
    leaves none of them."""
    paths = [path for path, _ in outputs]
    if not paths:
        return
    with atomic_outputs(paths) as temps:
        for temp, (_, write) in zip(temps, outputs):
            write(temp)


def text_writer(text):
    """A write() for write_all: the text, UTF-8."""
    def write(temp):
        with open(temp, "w", encoding="utf-8") as fh:
            fh.write(text)
    return write


def write_text(path, text):
    """A text file, atomically."""
    write_all([(path, text_writer(text))])
