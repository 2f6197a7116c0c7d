// Where the fbosim program looks for the `python` family's plugin: the build tree's, then the
// one an installed Python package carries beside its program (fbosim/bin/fbosim and
// fbosim/_libs, as setup.py lays them out; docs/PYTHON.md, "A wheel").
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "datasets/python/python_backend.hpp"

using fbosim::datasets::python::plugin_candidates;

TEST_CASE("python plugin: the build tree's first, then ../_libs beside the program") {
  const std::string built = "/src/build/libfbosim_pyembed.so";
  CHECK(plugin_candidates(built, "/venv/lib/python3.11/site-packages/fbosim/bin/fbosim") ==
        std::vector<std::string>{built,
                                 "/venv/lib/python3.11/site-packages/fbosim/_libs/"
                                 "libfbosim_pyembed.so"});
  // A program reached through a symlink is resolved by the caller (/proc/self/exe); the path
  // is normalised, not resolved.
  CHECK(plugin_candidates(built, "/opt/x/bin/fbosim")[1] == "/opt/x/_libs/libfbosim_pyembed.so");
  CHECK(plugin_candidates(built, "") == std::vector<std::string>{built});
}
