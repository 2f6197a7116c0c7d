"""Argument checks of the fbosim package. Every public function checks every argument before
the C++ core sees it: a wrong type is a TypeError, a wrong value a ValueError, and the message
names the argument and the value. Nothing is coerced silently: a float where a count belongs
(agents=200.7), a bool where a number belongs (runs=True), a string where a list belongs
(overrides="rounds=3"), NaN or inf, or a value out of range is refused, never truncated,
clamped or replaced by a default. numpy scalars count as the Python numbers they hold."""
import numbers
import operator
import os

import numpy as np

INT_MAX = 2**31 - 1  # the C++ core's int


def show(value):
    """repr, shortened: a message names the value without pages of it."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _kind(value):
    return type(value).__name__


def _scalar(value):
    """A 0-d numpy array as the scalar it holds (np.array(3) is the number 3)."""
    return value.item() if isinstance(value, np.ndarray) and value.ndim == 0 else value


def integer(name, value, lo=None, hi=None):
    """An integer (int or numpy integer; not bool, not float) in [lo, hi]."""
    value = _scalar(value)
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {show(value)} (a bool)")
    try:
        if isinstance(value, (float, np.floating)):
            raise TypeError
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {show(value)} ({_kind(value)})") \
            from None
    if lo is not None and v < lo:
        raise ValueError(f"{name} must be >= {lo}, got {v}")
    if hi is not None and v > hi:
        raise ValueError(f"{name} must be <= {hi}, got {v}")
    return v


def real(name, value, lo=None, hi=None, lo_open=False, hi_open=False):
    """A finite real number (int, float or numpy scalar; not bool, not str) in the interval
    between lo and hi (open ends with lo_open / hi_open)."""
    value = _scalar(value)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {show(value)} ({_kind(value)})")
    v = float(value)
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError(f"{name} must be a finite number, got {v}")
    if lo is not None and (v <= lo if lo_open else v < lo) or \
            hi is not None and (v >= hi if hi_open else v > hi):
        left = "(" if lo_open else "["
        right = ")" if hi_open else "]"
        if lo is not None and hi is not None:
            where = f"in {left}{lo:g}, {hi:g}{right}"
        elif lo is not None:
            where = f"{'>' if lo_open else '>='} {lo:g}"
        else:
            where = f"{'<' if hi_open else '<='} {hi:g}"
        raise ValueError(f"{name} must be {where}, got {show(value)}")
    return v


def boolean(name, value):
    value = _scalar(value)
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {show(value)} ({_kind(value)})")
    return bool(value)


def choice(name, value, choices):
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string (one of {', '.join(choices)}), got "
                        f"{show(value)} ({_kind(value)})")
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, got {show(value)}")
    return value


def path(name, value):
    """A file system path (str, bytes or os.PathLike), not empty, without NUL characters."""
    if not isinstance(value, (str, bytes, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or os.PathLike), got {show(value)} "
                        f"({_kind(value)})")
    text = os.fsdecode(os.fspath(value))
    if not text:
        raise ValueError(f"{name} must be a path, got an empty string")
    if "\0" in text:
        raise ValueError(f"{name} must be a path, got {show(text)} (a NUL character)")
    return text


def overrides(name, value):
    """A list (any iterable but a string or a mapping) of "key=value" strings."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a list of 'key=value' strings, got the string "
                        f"{show(value)}: write [{show(value)}]")
    if isinstance(value, dict) or not hasattr(value, "__iter__"):
        raise TypeError(f"{name} must be a list of 'key=value' strings, got {show(value)} "
                        f"({_kind(value)})")
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise TypeError(f"{name}[{i}] must be a 'key=value' string, got {show(item)} "
                            f"({_kind(item)})")
        key, eq, _ = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"{name}[{i}] must be 'key=value', got {show(item)}")
        if "\0" in item:
            raise ValueError(f"{name}[{i}] has a NUL character: {show(item)}")
        out.append(item)
    return out


def counts(name, value, lo=0):
    """Step counts: an integer or any (nested) array of them, each in [lo, 2^31 - 1]; floats
    are accepted where they are whole numbers (np.linspace, np.arange(..., dtype=float)).
    Returns (a flat list of ints, the array's shape)."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a count or an array of counts, got {show(value)} "
                        f"(a string)")
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError) as e:  # ragged nesting
        raise ValueError(f"{name} must be a count or a regular array of counts, got "
                         f"{show(value)} ({e})") from None
    if arr.dtype.kind == "O":  # mixed types, or integers beyond int64: say which element
        for item in arr.ravel():
            integer(f"each of {name}", item, lo, INT_MAX)
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iuf":
        what = "bools" if arr.dtype.kind == "b" else f"dtype {arr.dtype}"
        raise TypeError(f"{name} must be counts (integers), got {show(value)} ({what})")
    flat = arr.ravel()
    if flat.size:
        if arr.dtype.kind == "f":
            bad = ~np.isfinite(flat) | (flat != np.round(flat))
            if bad.any():
                raise ValueError(f"{name} must be whole counts, got {flat[bad][0]!r} in "
                                 f"{show(value)}")
        low, high = flat.min(), flat.max()
        if low < lo:
            raise ValueError(f"{name} must be counts >= {lo}, got {low} in {show(value)}")
        if high > INT_MAX:
            raise ValueError(f"{name} must be counts <= {INT_MAX}, got {high} in {show(value)}")
    return [int(s) for s in flat], arr.shape
