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

The shared libraries _core and the program load (all but the C and C++ runtimes) are copied
into fbosim/_libs with RUNPATH $ORIGIN (patchelf), so an install or a wheel (`pip wheel`)
runs without the build tree or Debian's -dev packages (docs/PYTHON.md, "A wheel").
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
from setuptools.command.install import install

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(ROOT, "python", "build_backend"))
import fbosim_backend  # noqa: E402  (which pybind11 serves this python)
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


# The C and C++ runtimes every Linux with glibc has (manylinux's list, PEP 600), never bundled.
SYSTEM_LIBS = re.compile(r"^(ld-linux.*|lib(c|m|dl|rt|pthread|util|resolv|stdc\+\+|gcc_s)"
                         r"\.so\..*|linux-vdso\.so\..*)$")


def needed_libraries(binaries):
    """{soname: path} of every shared library `binaries` load (ldd: the whole closure, each
    library's RUNPATH followed), less SYSTEM_LIBS."""
    found = {}
    for binary in binaries:
        listing = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True)
        for line in listing.stdout.splitlines():
            m = re.match(r"^\s*(\S+) => (\S+) \(0x", line)
            if m and not SYSTEM_LIBS.match(m.group(1)):
                found[m.group(1)] = m.group(2)
            elif "=> not found" in line:
                sys.exit(f"setup.py: {binary} needs {line.split()[0]}, which is not found")
    return found


def bundle_libraries(package, binaries, out, plugins=()):
    """Copies the shared libraries `binaries` need (libyaml-cpp, FFTW, NLopt, matio with
    Debian's HDF5 and what that links, OpenSSL's libcrypto, ...) into package/_libs and points
    every RUNPATH there with patchelf ($ORIGIN), as auditwheel does (not a Debian 12 package):
    the wheel then runs on a machine without the build tree or those packages, needing only
    glibc >= 2.36 and GCC 12's libstdc++ (Debian 12 and later). `plugins` (the `python`
    family's libfbosim_pyembed.so, which the program loads with dlopen from the build tree or
    from ../_libs beside itself) are copied there too, with what they link (libpython).
    Without patchelf the package uses the system's libraries and the build tree's plugin,
    and says so."""
    where = os.path.join(package, "_libs")
    shutil.rmtree(where, ignore_errors=True)  # setuptools' build tree keeps an earlier build's
    patchelf = shutil.which("patchelf")
    if not patchelf:
        print("fbosim: patchelf not found (Debian's patchelf; tools/setup.sh installs it): the "
              "package links the system's shared libraries, so a wheel made now runs only where "
              "the same Debian packages are installed", file=out, flush=True)
        return
    libs = needed_libraries(list(binaries) + list(plugins))
    libs.update({os.path.basename(p): p for p in plugins})
    os.makedirs(where)
    for soname, path in sorted(libs.items()):
        copy = os.path.join(where, soname)
        shutil.copyfile(os.path.realpath(path), copy)
        os.chmod(copy, 0o755)
        subprocess.run([patchelf, "--set-rpath", "$ORIGIN", copy], check=True)
    for binary in binaries:
        rel = os.path.relpath(where, os.path.dirname(binary))
        subprocess.run([patchelf, "--set-rpath", f"$ORIGIN/{rel}", binary], check=True)
    size = sum(os.path.getsize(os.path.join(where, f)) for f in os.listdir(where))
    print(f"fbosim: bundled {len(libs)} shared libraries ({size / 2**20:.1f} MiB) into "
          f"fbosim/_libs", file=out, flush=True)


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
            if fbosim_backend.pybind11_requirement():
                # Debian's pybind11-dev is absent or too old for this python: PyPI's (the
                # backend asked for it as a build requirement).
                try:
                    import pybind11
                    configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
                except ImportError:
                    sys.exit(f"setup.py: this python needs pybind11 >= "
                             f"{'.'.join(map(str, fbosim_backend.pybind11_needed()))} (Debian 12's "
                             "pybind11-dev is 2.10): install it, or let pip's build isolation "
                             "fetch it (no --no-build-isolation)")
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
        program = os.path.join(package, "bin", "fbosim")
        shutil.copy2(os.path.join(directory, "fbosim"), program)
        plugin = os.path.join(directory, "libfbosim_pyembed.so")
        bundle_libraries(package, [target, program], out,
                         [plugin] if os.path.exists(plugin) else [])


class Install(install):
    """setuptools' install. Debian's setuptools wheel file (python3-setuptools-whl, which an
    offline isolated build on Debian uses: docs/PYTHON.md) reads the options `install_layout`
    and `prefix_option` that only Debian's own distutils defines; under another CPython
    (pyenv's, python.org's) it would stop with "AttributeError: install_layout". None is
    Debian's default for both."""

    install_layout = None
    prefix_option = None


_base = os.path.join(build_dir()[0], "setuptools")
setup(
    name="fbosim",
    version=version(),
    package_dir={"": "python"},
    packages=["fbosim"],
    ext_modules=[Extension("fbosim._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild, "install": Install},
    options={"build": {"build_base": os.path.join(_base, "build")},
             "egg_info": {"egg_base": _base}},
    zip_safe=False,
)
