"""Callables passed as fbosim.run(objective=...). A function that its module's import finds again
(a top-level function or a class's static function, of a module other than __main__) is named
by its "module:qualname", which config.resolved.yaml then records: `fbosim run` re-runs it.
Any other (a lambda, a closure, a function of __main__, a bound method, a functools.partial) is
an attribute of this module while its run lasts, so that the `python` objective family finds it
as "fbosim._objectives:<name>"; such a run cannot be reproduced from its files alone
(provenance.yaml says so, and so does a line on stderr)."""
import importlib
import itertools
import sys

PREFIX = "fbosim._objectives:"  # datasets/python/python_family.hpp, kRegisteredPrefix
_ids = itertools.count()


def importable_name(fn):
    """"module:qualname" when importing fn's module and following its qualified name gives fn
    itself, else None."""
    module = getattr(fn, "__module__", None)
    qualname = getattr(fn, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str):
        return None
    if module == "__main__" or module == __name__ or "<" in qualname:  # <lambda>, <locals>
        return None
    try:
        obj = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except Exception:  # noqa: BLE001 - any failure means: not importable
        return None
    return f"{module}:{qualname}" if obj is fn else None


def add(fn):
    """Registers fn and returns its attribute name; says on stderr that the run cannot be
    reproduced from its files."""
    name = f"objective_{next(_ids)}"
    globals()[name] = fn
    print(f"fbosim: note: the objective {_describe(fn)} cannot be imported again (a lambda, a "
          f"closure, a function of __main__ or a bound method): config.resolved.yaml records "
          f"{PREFIX}{name} and the run cannot be reproduced from its files alone (define the "
          f"function at the top level of an importable module to record module:function)",
          file=sys.stderr)
    return name


def remove(name):
    globals().pop(name, None)


def _describe(fn):
    text = getattr(fn, "__qualname__", None) or repr(fn)
    return text if len(text) <= 80 else text[:77] + "..."
