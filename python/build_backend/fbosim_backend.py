"""The fbosim package's PEP 517 build backend (pyproject.toml, [build-system]): setuptools' own
(setuptools.build_meta), with two additions so that any CPython >= 3.9 installs it, with a
package index or offline with Debian's packages (docs/PYTHON.md, "Install"):

1. pybind11 is asked for as a build requirement only where Debian's pybind11-dev (its CMake
   files in /usr/lib/cmake/pybind11) is absent or older than the installing python needs
   (pybind11 2.11 for CPython 3.12, 2.13 for 3.13 and later; Debian 12 has 2.10.3). So an
   isolated build offline needs only setuptools and wheel, which Debian ships as wheel files
   (python3-setuptools-whl, python3-wheel-whl in /usr/share/python-wheels):
       pip install --no-index --find-links /usr/share/python-wheels .
2. With --no-build-isolation pip uses the environment's own setuptools and wheel and installs
   neither. A venv of a CPython from python.org or pyenv has no `wheel`, and setuptools before
   70.1 cannot make a wheel without it ("invalid command 'bdist_wheel'"): Debian's wheel file
   (pure Python) is then put on sys.path, and a line says so. A setuptools older than 61
   (which ignores pyproject.toml's [project]: the package would lose its numpy and pandas
   dependencies) stops the build with the command that updates it.
"""
import glob
import os
import re
import sys

DEBIAN_WHEELS = "/usr/share/python-wheels"
DEBIAN_PYBIND11 = "/usr/lib/cmake/pybind11"
MIN_SETUPTOOLS = (61,)


def pybind11_needed(python=sys.version_info[:2]):
    """The pybind11 version the python `python` (major, minor) needs, as a tuple."""
    if python >= (3, 13):
        return (2, 13)
    if python >= (3, 12):
        return (2, 11)
    return (2, 10)


def version_tuple(text):
    return tuple(int(p) for p in re.findall(r"[0-9]+", text)[:3])


def debian_pybind11(cmake_dir=DEBIAN_PYBIND11):
    """The version of the pybind11 whose CMake files are in cmake_dir, as a tuple; None when
    there are none."""
    try:
        with open(os.path.join(cmake_dir, "pybind11ConfigVersion.cmake"), encoding="utf-8") as f:
            m = re.search(r'set\(PACKAGE_VERSION "([0-9.]+)"\)', f.read())
    except OSError:
        return None
    return version_tuple(m.group(1)) if m else None


def pybind11_requirement(python=sys.version_info[:2], cmake_dir=DEBIAN_PYBIND11):
    """[] when the system's pybind11 (cmake_dir) serves `python`, else the PyPI requirement."""
    need = pybind11_needed(python)
    have = debian_pybind11(cmake_dir)
    if have is not None and have >= need:
        return []
    return ["pybind11>=" + ".".join(map(str, need))]


def _wheel_fallback():
    """Puts Debian's wheel file on sys.path when the environment has no `wheel` module."""
    try:
        import wheel  # noqa: F401
        return
    except ImportError:
        pass
    found = sorted(glob.glob(os.path.join(DEBIAN_WHEELS, "wheel-*.whl")))
    if not found:
        sys.exit("fbosim: this environment has no `wheel` package, which setuptools needs to make "
                 "a wheel (\"invalid command 'bdist_wheel'\") under --no-build-isolation: "
                 f"`{sys.executable} -m pip install wheel` (offline: Debian's python3-wheel-whl, "
                 f"then add --no-index --find-links {DEBIAN_WHEELS}), or drop "
                 "--no-build-isolation where a package index is reachable")
    sys.path.insert(0, found[-1])
    print(f"fbosim: no `wheel` package in this environment; using Debian's {found[-1]}",
          file=sys.stderr)


def _check_setuptools():
    import setuptools
    if version_tuple(setuptools.__version__) < MIN_SETUPTOOLS:
        sys.exit(f"fbosim: setuptools {setuptools.__version__} in this environment is older than "
                 "61 (it would ignore pyproject.toml's [project] table) under "
                 f"--no-build-isolation: `{sys.executable} -m pip install 'setuptools>=61'` "
                 f"(offline: add --no-index --find-links {DEBIAN_WHEELS}, Debian's "
                 "python3-setuptools-whl), or drop --no-build-isolation")


_check_setuptools()
_wheel_fallback()

from setuptools import build_meta as _meta  # noqa: E402
from setuptools.build_meta import *  # noqa: E402,F401,F403


def get_requires_for_build_wheel(config_settings=None):
    return _meta.get_requires_for_build_wheel(config_settings) + pybind11_requirement()


def get_requires_for_build_editable(config_settings=None):
    return _meta.get_requires_for_build_editable(config_settings) + pybind11_requirement()
