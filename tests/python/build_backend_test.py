#!/usr/bin/python3
"""The fbosim package's build backend (python/build_backend/fbosim_backend.py) asks pip for
pybind11 only where the system's pybind11 (Debian's pybind11-dev) is missing or older than the
installing CPython needs (2.11 for 3.12, 2.13 for 3.13: pybind11's release notes), so that an
offline isolated build needs only Debian's wheel files of setuptools and wheel. Checked on
made-up pybind11 CMake directories, against dpkg's version of the installed pybind11-dev, and
against pyproject.toml's [build-system] table."""
import os
import subprocess
import sys
import tempfile
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python", "build_backend"))
import fbosim_backend as b  # noqa: E402


def made_up(directory, version):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "pybind11ConfigVersion.cmake"), "w") as f:
        f.write(f'# made up\nset(PACKAGE_VERSION "{version}")\n'
                'if(PACKAGE_FIND_VERSION_RANGE)\nendif()\n')
    return directory


def main():
    assert [b.pybind11_needed(v) for v in [(3, 9), (3, 11), (3, 12), (3, 13), (3, 14)]] == \
        [(2, 10), (2, 10), (2, 11), (2, 13), (2, 13)]
    with tempfile.TemporaryDirectory() as tmp:
        debian = made_up(os.path.join(tmp, "debian"), "2.10.3")
        new = made_up(os.path.join(tmp, "new"), "2.13.6")
        missing = os.path.join(tmp, "none")
        assert b.debian_pybind11(debian) == (2, 10, 3)
        assert b.debian_pybind11(missing) is None
        cases = [((3, 9), debian, []), ((3, 11), debian, []),
                 ((3, 12), debian, ["pybind11>=2.11"]), ((3, 13), debian, ["pybind11>=2.13"]),
                 ((3, 11), missing, ["pybind11>=2.10"]), ((3, 13), new, [])]
        for python, where, want in cases:
            got = b.pybind11_requirement(python, where)
            assert got == want, (python, where, got, want)
    # The installed pybind11-dev, read by the backend and by dpkg.
    if os.path.exists(b.DEBIAN_PYBIND11):
        dpkg = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "pybind11-dev"],
                              capture_output=True, text=True).stdout
        assert dpkg and b.debian_pybind11() == b.version_tuple(dpkg.split("-")[0]), \
            (dpkg, b.debian_pybind11())
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        system = tomllib.load(f)["build-system"]
    assert not any(r.startswith("pybind11") for r in system["requires"]), system
    assert system["build-backend"] == "fbosim_backend", system
    assert os.path.isfile(os.path.join(ROOT, *system["backend-path"], "fbosim_backend.py"))
    print("build backend: pybind11 asked for only where the system's is missing or too old "
          f"(here: {b.pybind11_requirement() or 'not asked for'})")


main()
