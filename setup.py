"""`pip install .` of the fbosim Python package (docs/PYTHON.md, "Install"): setuptools (Debian's
python3-setuptools) runs CMake, which builds the one target the package needs, `fbosim_python`
(fbosim/_core, pybind11 from Debian's pybind11-dev), and the .py files come from python/fbosim.
Nothing is downloaded: install with `--no-build-isolation` (use the installed setuptools and
wheel instead of fetching them) and `--no-index` (numpy and pandas must already be there, e.g.
Debian's, seen by a venv made with --system-site-packages).

The CMake build directory: $FBOSIM_BUILD_DIR when set (an existing build tree is reused: only
fbosim_python and fbosim are brought up to date; it must have been configured for this
interpreter's ABI, which is checked); else the checkout's build/ of the quick start when it fits
this interpreter (configured from this checkout with the Python module, for the same extension
suffix, e.g. .cpython-311-x86_64-linux-gnu.so: seconds instead of a full build); else
build/pip-<python tag>, configured here for this interpreter (Release, no tests, no LibTorch).
Which one, and why, is printed first. The build's progress (one line per compiled unity batch
and per built library, as tools/setup.sh prints it) goes to the terminal even under pip, which
hides a build backend's output unless -v; the whole log is <build dir>/pip-build.log.
setuptools' own build files go under that directory too, so the checkout stays clean (an
egg-info or build/lib in the sources would make the build id "modified").
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


def cache_entries(directory):
    """CMakeCache.txt's NAME:TYPE=VALUE entries as {NAME: VALUE}; {} without one."""
    entries = {}
    try:
        with open(os.path.join(directory, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"([A-Za-z0-9_.+-]+):[A-Z]+=(.*)$", line.rstrip("\n"))
                if m:
                    entries[m.group(1)] = m.group(2)
    except OSError:
        pass
    return entries


def misfit(directory):
    """Why the configured build tree `directory` cannot build this interpreter's module; None
    when it can."""
    cache = cache_entries(directory)
    if not cache:
        return f"{directory} is not a configured build tree (no CMakeCache.txt)"
    home = cache.get("CMAKE_HOME_DIRECTORY", "")
    if not home or os.path.realpath(home) != os.path.realpath(ROOT):
        return f"{directory} was configured from {home or 'an unknown source'}, not {ROOT}"
    if cache.get("FBOSIM_PYTHON", "ON").upper() in ("OFF", "0", "FALSE", "NO"):
        return f"{directory} was configured with FBOSIM_PYTHON=OFF"
    suffix = cache.get("PYTHON_MODULE_EXTENSION")
    if not suffix:
        return f"{directory} found no pybind11 when it was configured (no Python module)"
    if suffix != EXT_SUFFIX:
        return (f"{directory} builds the module for {suffix} ({cache.get('PYTHON_EXECUTABLE')}), "
                f"this python ({sys.executable}) needs {EXT_SUFFIX}")
    return None


def build_dir():
    """(directory, reused, why): the build tree to use, whether it is an existing one, and the
    line that says why."""
    given = os.environ.get("FBOSIM_BUILD_DIR")
    if given:
        given = os.path.abspath(given)
        return given, True, f"FBOSIM_BUILD_DIR: reusing {given}"
    tag = sysconfig.get_config_var("SOABI") or "python"
    own = os.path.join(ROOT, "build", f"pip-{tag}")
    quick = os.path.join(ROOT, "build")
    if os.path.exists(os.path.join(quick, "CMakeCache.txt")):
        why = misfit(quick)
        if why is None:
            return quick, True, (f"reusing the configured {quick} (its Python module is built "
                                 f"for {EXT_SUFFIX}, as this python needs)")
        if os.path.exists(os.path.join(own, "CMakeCache.txt")):
            return own, False, f"not reusing build/: {why}; building in {own}"
        return own, False, (f"not reusing build/: {why}; configuring {own} for this python (a "
                            "full build of the libraries: tens of minutes on 2 cores)")
    if os.path.exists(os.path.join(own, "CMakeCache.txt")):
        return own, False, f"building in {own}"
    return own, False, (f"configuring {own} for this python (a full build of the libraries: "
                        "tens of minutes on 2 cores; after tools/quickstart.sh, build/ is reused)")


def progress_stream():
    """Where the progress lines go: the terminal when there is one (pip shows a build backend's
    output only with -v or on failure, so a long build would look hung), else stderr."""
    if os.environ.get("FBOSIM_BUILD_PROGRESS", "tty") == "stderr":
        return sys.stderr
    try:
        return open("/dev/tty", "w", encoding="utf-8")
    except OSError:
        return sys.stderr


# The generator's lines shortened as tools/setup.sh shortens them (Ninja's "[12/60] Building
# CXX object .../fbosim_config.dir/Unity/unity_0_cxx.cxx.o" -> "[12/60] fbosim_config, unity
# batch 0"); other lines go to the log only.
PROGRESS = [
    (re.compile(r"^(\[[ 0-9/%]*\]) Building [A-Z]+ object \S*?([^/ ]+)\.dir/Unity/unity_([0-9]+)_"
                r"[a-z]+\.[a-z]+\.o$"), r"\1 \2, unity batch \3"),
    (re.compile(r"^(\[[ 0-9/%]*\]) Building [A-Z]+ object \S*\.dir/(.*)\.o$"), r"\1 \2"),
    (re.compile(r"^(\[[ 0-9/%]*\]) Linking [A-Z]+ [a-z ]*library \S*?lib([^ /]+)\.a$"),
     r"\1 built \2"),
    (re.compile(r"^(\[[ 0-9/%]*\]) Linking [A-Z]+ (?:shared module|executable) (.*)$"),
     r"\1 linking \2"),
    (re.compile(r"^(\[[ 0-9/%]*\]) Built target (.*)$"), r"\1 built \2"),
]


def run_logged(command, log_path, out):
    """Runs command, its output into log_path and its progress lines to `out`; exits naming
    the log when it fails."""
    print("fbosim: " + " ".join(command), file=out, flush=True)
    with open(log_path, "a", encoding="utf-8") as log:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, errors="replace")
        tail = []
        for line in proc.stdout:
            log.write(line)
            tail = (tail + [line])[-40:]
            for pattern, short in PROGRESS:
                if pattern.match(line.rstrip("\n")):
                    print("fbosim: " + pattern.sub(short, line.rstrip("\n")), file=out,
                          flush=True)
                    break
        status = proc.wait()
    if status != 0:
        sys.stderr.write("".join(tail))
        sys.exit(f"setup.py: {' '.join(command)} failed (exit {status}); the whole log is "
                 f"{log_path}")


class CMakeBuild(build_ext):
    """Builds fbosim/_core with CMake (target fbosim_python) and copies it into the wheel."""

    def build_extension(self, ext):
        directory, reused, why = build_dir()
        out = progress_stream()
        # On a terminal, pip's spinner holds the line: start a new one.
        print(f"{chr(10) if out is not sys.stderr else ''}fbosim: {why}", file=out, flush=True)
        cache = os.path.join(directory, "CMakeCache.txt")
        os.makedirs(directory, exist_ok=True)
        log = os.path.join(directory, "pip-build.log")
        if not os.path.exists(cache):
            if reused:
                sys.exit(f"setup.py: FBOSIM_BUILD_DIR={directory} holds no CMakeCache.txt: give a "
                         "configured fbosim build directory (e.g. build/), or unset it")
            configure = ["cmake", "-S", ROOT, "-B", directory, "-DCMAKE_BUILD_TYPE=Release",
                         "-DFBOSIM_TESTS=OFF", "-DFBOSIM_PYTHON=ON",
                         f"-DPYTHON_EXECUTABLE={sys.executable}"]
            if shutil.which("ninja"):
                configure += ["-G", "Ninja"]
            if shutil.which("ccache"):
                configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            try:  # PyPI's pybind11 (a build requirement) when Debian's pybind11-dev is absent
                import pybind11
                if not os.path.exists("/usr/lib/cmake/pybind11"):
                    configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
            except ImportError:
                pass
            run_logged(configure, log, out)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        # fbosim: the program fbosim.sweep runs, installed in the package (fbosim/bin).
        run_logged(["cmake", "--build", directory, "--target", "fbosim_python", "fbosim",
                    "-j", jobs], log, out)
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
        package = os.path.dirname(target)
        # fbosim.plot's modules (tools/, copied into the build tree) and fbosim.sweep's program.
        os.makedirs(os.path.join(package, "tools"), exist_ok=True)
        for tool in glob.glob(os.path.join(directory, "python", "fbosim", "tools", "*.py")):
            shutil.copyfile(tool, os.path.join(package, "tools", os.path.basename(tool)))
        os.makedirs(os.path.join(package, "bin"), exist_ok=True)
        shutil.copy2(os.path.join(directory, "fbosim"), os.path.join(package, "bin", "fbosim"))


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
