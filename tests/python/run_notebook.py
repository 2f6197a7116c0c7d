#!/usr/bin/python3
"""Executes a notebook as the test suite's check that it still runs (issue 28 sec. 3): with
Debian's nbclient and ipykernel (python3-nbconvert, python3-ipykernel) in a real kernel, cell by
cell; without them, its code cells in order as one script (the same code, so the check never
depends on Jupyter being installed). Any exception, a failing assert included, fails the test.

The notebook runs in its own folder (as Jupyter starts it) with FBOSIM_TUTORIAL_TINY=1 and
FBOSIM_TUTORIAL_OUT set to a temporary directory (removed afterwards), and matplotlib's Agg
backend; it must finish within --timeout seconds (default 120).

    tests/python/run_notebook.py examples/tutorial.ipynb [--script] [--timeout S]
"""
import argparse
import json
import os
import runpy
import shutil
import sys
import tempfile
import time


def run_with_kernel(path, timeout):
    import nbclient
    import nbformat
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                     resources={"metadata": {"path": os.path.dirname(path)}})
    client.execute()
    return "a Jupyter kernel (nbclient)"


def run_as_script(path, tmp):
    with open(path, encoding="utf-8") as f:
        cells = json.load(f)["cells"]
    source = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    script = os.path.join(tmp, "notebook_cells.py")
    with open(script, "w", encoding="utf-8") as f:
        f.write(source + "\n")
    cwd = os.getcwd()
    os.chdir(os.path.dirname(path))
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        os.chdir(cwd)
    return "its code cells as a script"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebook")
    ap.add_argument("--script", action="store_true", help="run the cells as a script")
    ap.add_argument("--timeout", type=int, default=120)
    args = ap.parse_args()
    path = os.path.abspath(args.notebook)
    tmp = tempfile.mkdtemp(prefix="fbosim-notebook-")
    os.environ.update(FBOSIM_TUTORIAL_TINY="1", FBOSIM_TUTORIAL_OUT=os.path.join(tmp, "out"),
                      MPLBACKEND="Agg")
    start = time.monotonic()
    try:
        how = None
        if not args.script:
            try:
                import ipykernel  # noqa: F401
                import nbclient  # noqa: F401
                import nbformat  # noqa: F401
            except ImportError as e:
                print(f"run_notebook: {e.name} is missing (Debian: python3-nbconvert, "
                      "python3-ipykernel): running the cells as a script", file=sys.stderr)
            else:
                how = run_with_kernel(path, args.timeout)
        if how is None:
            how = run_as_script(path, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    seconds = time.monotonic() - start
    if seconds > args.timeout:
        sys.exit(f"run_notebook: {path} took {seconds:.0f} s, over {args.timeout:.0f} s")
    print(f"{os.path.basename(path)}: every cell ran in {how}, {seconds:.1f} s")


if __name__ == "__main__":
    main()
