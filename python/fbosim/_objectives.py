"""Callables passed as fbosim.run(objective=...): each is an attribute of this module while its
run lasts, so that the `python` objective family finds it as "fbosim._objectives:<name>"."""
import itertools

_ids = itertools.count()


def add(fn):
    """Registers fn and returns its attribute name."""
    name = f"objective_{next(_ids)}"
    globals()[name] = fn
    return name


def remove(name):
    globals().pop(name, None)
