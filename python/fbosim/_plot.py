"""fbosim.plot: the figures of tools/plot_results.py from Python (the same code: its checks of
every file, its labels, colours and footnotes), with the legend's labels given by the caller.

The tools' modules (plot_results.py, fbosim_plots.py, fbosim_results.py, fbosim_style.py) are
installed with the package in fbosim/tools (copied there by CMake and by setup.py); a checkout's
tools/ is used when the package runs from the build tree without them."""
import importlib
import os
import sys

from . import _check

_TOOLS = ("plot_results", "fbosim_plots", "fbosim_results", "fbosim_style")


def _tools_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    for place in (os.path.join(here, "tools"), os.path.join(here, "..", "..", "..", "tools")):
        if all(os.path.isfile(os.path.join(place, f"{m}.py")) for m in _TOOLS):
            return os.path.normpath(place)
    raise RuntimeError(f"fbosim.plot needs the plotting tools, not found in "
                       f"{os.path.join(here, 'tools')}: reinstall the package (pip install .)")


def _plot_results():
    for module in ("matplotlib", "pandas", "yaml"):
        try:
            importlib.import_module(module)
        except ImportError:
            raise ImportError(f"fbosim.plot needs {module}: install Debian's python3-matplotlib, "
                              "python3-pandas and python3-yaml (or pip install matplotlib "
                              "pandas pyyaml)") from None
    import matplotlib

    # fbosim_plots selects the Agg backend (files only); a notebook keeps its own.
    backend = matplotlib.get_backend() if "matplotlib.pyplot" in sys.modules else None
    tools = _tools_dir()
    if tools not in sys.path:
        sys.path.insert(0, tools)
    module = importlib.import_module("plot_results")
    if backend and backend.lower() != "agg":
        import matplotlib.pyplot as plt

        plt.switch_backend(backend)
    return module


def plot(results, out=None, labels=None, vs_epsilon=False, series=None, accountant=None,
         where=None, title=None, formats=None, size=None, legend=None):
    """Draws results as tools/plot_results.py does and returns the path of the PNG (its PDF
    beside it). results: a run or sweep directory, or a list of them (a sweep is expanded into
    its points). out: the files' stem (default: in the first directory, named after it).
    labels: the legend's text, a list with one label per result (a sweep's points in its order)
    or a dict {result directory name: label} (a sweep's point names, e.g.
    "server.noise_multiplier=2"), for the utility-against-iterations plot; the default labels
    come from the keys in which the results' configs differ. vs_epsilon, series, accountant:
    the final utility against the privacy loss (one point per result, `series` joins those
    sharing a key's value). where: {key: value} keeps the results whose config has it. title: a
    title. formats: e.g. ["png", "svg"] (default png and pdf). labels="name": each result's
    config name. size: (width, height) in inches; legend: "outside" (default), "below", "none"
    or a matplotlib place such as "best" (docs/FIGURES.md). A file fbosim did not write, or
    one that is damaged, raises ValueError naming it, and nothing is written. In a notebook:
    IPython.display.Image(fbosim.plot(...))."""
    if isinstance(results, (str, bytes, os.PathLike)):
        results = [results]
    paths = [_check.path(f"results[{i}]", r) for i, r in enumerate(results)]
    if not paths:
        raise ValueError("results: no directory given")
    if out is not None:
        out = _check.path("out", out)
    if labels is not None:
        if vs_epsilon:
            raise ValueError("labels go with the iterations plot; vs_epsilon=True labels its "
                             "series by their key's value")
        if labels != "name" and not isinstance(labels, dict) and (
                isinstance(labels, (str, bytes)) or not hasattr(labels, "__iter__")):
            raise TypeError(f"labels must be a list of strings or a dict, got "
                            f"{_check.show(labels)}")
    conditions = [f"{k}={v}" for k, v in (where or {}).items()]
    module = _plot_results()
    fbosim_plots = sys.modules["fbosim_plots"]
    saved = dict(fbosim_plots.STYLE)
    if size is not None:
        try:
            w, h = (float(v) for v in size)
        except (TypeError, ValueError):
            w = h = float("nan")
        if not (0.5 <= w <= 50 and 0.5 <= h <= 50):
            raise ValueError(f"size must be (width, height) in inches, each in [0.5, 50], got "
                             f"{_check.show(size)}")
        fbosim_plots.STYLE["size"] = (w, h)
    if legend is not None:
        places = sys.modules["fbosim_style"].LEGEND_PLACES
        if legend not in places:
            raise ValueError(f"legend must be one of {', '.join(places)}, got "
                             f"{_check.show(legend)}")
        fbosim_plots.STYLE["legend"] = legend
    if formats is not None:
        if isinstance(formats, str) or not all(f in fbosim_plots.FORMATS for f in formats) \
                or not formats:
            raise ValueError(f"formats must be a list of {', '.join(fbosim_plots.FORMATS)}, got "
                             f"{_check.show(formats)}")
        fbosim_plots.STYLE["formats"] = tuple(formats)
    try:
        return module.plot(paths, vs_epsilon, series, accountant, conditions, title, out,
                           labels=labels if labels == "name" else
                           dict(labels) if isinstance(labels, dict) else
                           (list(labels) if labels is not None else None))
    except sys.modules["fbosim_results"].ResultError as e:
        raise ValueError(str(e)) from None
    finally:
        fbosim_plots.STYLE.clear()
        fbosim_plots.STYLE.update(saved)
