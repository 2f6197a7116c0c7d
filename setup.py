"""`pip install .` of the fbosim Python package (docs/PYTHON.md, "Install"): setuptools (Debian's
python3-setuptools) runs CMake, which builds the one target the package needs, `fbosim_python`
(fbosim/_core, pybind11 from Debian's pybind11-dev), and the .py files come from python/fbosim.
Nothing is downloaded: install with `--no-build-isolation` (use the installed setuptools and
wheel instead of fetching them) and `--no-index` (numpy and pandas must already be there, e.g.
Debian's, seen by a venv made with --system-site-packages).

The CMake build directory: $FBOSIM_BUILD_DIR when set (an existing build tree, e.g. build/,
is reused: only fbosim_python and what it needs are brought up to date; it must have been
configured for this interpreter's ABI, which is checked), else build/pip-<python tag> in the
checkout, configured here for this interpreter (Release, no tests, no LibTorch). setuptools'
own build files go under that directory too, so the checkout stays clean (an egg-info or
build/lib in the sources would make the build id "modified").
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")  # e.g. .cpython-311-x86_64-linux-gnu.so


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(fbosim VERSION ([0-9.]+)", f.read())
    if not m:
        sys.exit("setup.py: no `project(fbosim VERSION ...)` in CMakeLists.txt")
    return m.group(1)


def build_dir():
    given = os.environ.get("FBOSIM_BUILD_DIR")
    if given:
        return os.path.abspath(given), True
    tag = sysconfig.get_config_var("SOABI") or "python"
    return os.path.join(ROOT, "build", f"pip-{tag}"), False


class CMakeBuild(build_ext):
    """Builds fbosim/_core with CMake (target fbosim_python) and copies it into the wheel."""

    def build_extension(self, ext):
        directory, reused = build_dir()
        cache = os.path.join(directory, "CMakeCache.txt")
        if not os.path.exists(cache):
            if reused:
                sys.exit(f"setup.py: FBOSIM_BUILD_DIR={directory} holds no CMakeCache.txt: give a "
                         "configured fbosim build directory (e.g. build/), or unset it")
            configure = ["cmake", "-S", ROOT, "-B", directory, "-DCMAKE_BUILD_TYPE=Release",
                         "-DFBOSIM_TESTS=OFF", "-DFBOSIM_TORCH=OFF", "-DFBOSIM_PYTHON=ON",
                         f"-DPYTHON_EXECUTABLE={sys.executable}"]
            if shutil.which("ccache"):
                configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            self.spawn(configure)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        self.spawn(["cmake", "--build", directory, "--target", "fbosim_python", "-j", jobs])
        built = glob.glob(os.path.join(directory, "python", "fbosim", "_core*.so"))
        if not built:
            sys.exit(f"setup.py: {directory} built no python/fbosim/_core*.so: is Debian's "
                     "pybind11-dev installed (tools/setup.sh)? See that directory's CMake output")
        wanted = [p for p in built if p.endswith(EXT_SUFFIX)]
        if not wanted:
            sys.exit(f"setup.py: {directory} holds {', '.join(map(os.path.basename, built))}, "
                     f"built for another Python than {sys.executable} (which needs _core"
                     f"{EXT_SUFFIX}): unset FBOSIM_BUILD_DIR to build in a directory of its own")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(wanted[0], target)


_base = os.path.join(build_dir()[0], "setuptools")
setup(
    name="fbosim",
    version=version(),
    package_dir={"": "python"},
    packages=["fbosim"],
    ext_modules=[Extension("fbosim._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": os.path.join(_base, "build")},
             "egg_info": {"egg_base": _base}},
    zip_safe=False,
)
