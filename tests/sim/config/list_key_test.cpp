// A list-of-reals key read from YAML and --set (issue 29: rff.lengthscales, the messages' ARD
// length scales): flow and block sequences, --set's flow values, null to fall back to the
// scalar rff.lengthscale, the resolved config, and each bad input's message (file, line, key,
// value).
#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>

#include "fts_de_of.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/config_tree.hpp"

using namespace fbosim::config;
using Catch::Contains;
using fbosim::testing::fts_de_of;

namespace {
// A 2-D grid family (gp_grid2d) with DP-FTS-DE, small.
const std::string kBase = "objective: {family: gp_grid2d, grid_side: 5}\nagents: {count: 4}\n";

LoadedConfig load(const std::string& text, const std::vector<std::string>& sets = {}) {
  return load_config_text(kBase + text, "test.yaml", "test", sets);
}
using List = std::vector<double>;
}  // namespace

TEST_CASE("rff.lengthscales: a flow or block sequence, or --set's flow value, reaches the spec") {
  const LoadedConfig flow = load("rff: {lengthscales: [0.1, 0.3]}\n");
  CHECK(fts_de_of(flow.spec)->rff_lengthscales == List{0.1, 0.3});
  const LoadedConfig block = load("rff:\n  lengthscales:\n    - 0.1\n    - 3\n");
  CHECK(fts_de_of(block.spec)->rff_lengthscales == List{0.1, 3});
  const LoadedConfig set = load("", {"rff.lengthscales=[0.1,0.3]"});
  CHECK(fts_de_of(set.spec)->rff_lengthscales == List{0.1, 0.3});
  CHECK(fts_de_of(load("", {"rff.lengthscales=[0.2, 4e-1]"}).spec)->rff_lengthscales ==
        List{0.2, 0.4});
  // The resolved config records the list as a flow sequence and not the scalar (not read), and
  // reads back to itself.
  const std::string text = YAML::Dump(flow.resolved);
  CHECK_THAT(text, Contains("lengthscales: [0.1, 0.3]"));
  CHECK_FALSE(flow.resolved["rff"]["lengthscale"]);
  CHECK(YAML::Dump(load_config_text(text, "again.yaml", "test", {}).resolved) == text);
  // FTS's target-agent family reads the same key.
  const LoadedConfig fts = load("algorithm: fts_target\nrff: {lengthscales: [0.5, 0.25]}\n");
  CHECK(fts.resolved["rff"]["lengthscales"].as<List>() == List{0.5, 0.25});
  CHECK_FALSE(fts.resolved["rff"]["lengthscale"]);
}

TEST_CASE("rff.lengthscales: absent or null is the scalar rff.lengthscale, as before") {
  const LoadedConfig none = load("rff: {lengthscale: 0.2}\n");
  CHECK(fts_de_of(none.spec)->rff_lengthscales.empty());
  CHECK(fts_de_of(none.spec)->rff_lengthscale == 0.2);
  CHECK(none.resolved["rff"]["lengthscales"].IsNull());
  CHECK(none.resolved["rff"]["lengthscale"].as<double>() == 0.2);
  // A list in the file, switched back to the scalar from the command line.
  const LoadedConfig back =
      load("rff: {lengthscales: [0.1, 0.3]}\n", {"rff.lengthscales=~", "rff.lengthscale=0.4"});
  CHECK(fts_de_of(back.spec)->rff_lengthscales.empty());
  CHECK(fts_de_of(back.spec)->rff_lengthscale == 0.4);
}

TEST_CASE("rff.lengthscales: bad input names the file, the line, the key and the value") {
  const auto refused = [](const std::string& text, const std::vector<std::string>& sets,
                          const std::vector<std::string>& words) {
    INFO(text << " / " << (sets.empty() ? "" : sets[0]));
    try {
      load(text, sets);
      FAIL("accepted");
    } catch (const ConfigError& e) {
      const std::string what = e.what();
      for (const std::string& w : words) CHECK_THAT(what, Contains(w));
    }
  };
  // Not a list.
  refused("rff: {lengthscales: 0.1}\n", {},
          {"test.yaml:3: rff.lengthscales", "expected a list of numbers", "'0.1'"});
  refused("rff: {lengthscales: {a: 1}}\n", {}, {"rff.lengthscales", "expected a list"});
  refused("", {"rff.lengthscales=0.1,0.3"}, {"rff.lengthscales", "expected a list", "0.1,0.3"});
  // A wrong item.
  refused("rff: {lengthscales: [0.1, abc]}\n", {},
          {"test.yaml:3: rff.lengthscales", "item 2", "expected a number", "[0.1, abc]"});
  refused("rff: {lengthscales: [0.1, [1]]}\n", {}, {"rff.lengthscales", "item 2"});
  refused("rff: {lengthscales: [0.1, \"0.3\"]}\n", {}, {"rff.lengthscales", "item 2", "quoted"});
  refused("rff: {lengthscales: [0.1, ~]}\n", {}, {"rff.lengthscales", "item 2"});
  refused("rff: {lengthscales: [0.1, -0.3]}\n", {}, {"rff.lengthscales", "item 2 must be > 0"});
  refused("rff: {lengthscales: [0, 1]}\n", {}, {"rff.lengthscales", "item 1 must be > 0"});
  refused("rff: {lengthscales: [.nan, 1]}\n", {},
          {"rff.lengthscales", "item 1 must be a finite number", ".nan"});
  refused("", {"rff.lengthscales=[1,.inf]"}, {"rff.lengthscales", "item 2", "finite"});
  // Empty, and the wrong length for the objective's dimension (2).
  refused("rff: {lengthscales: []}\n", {}, {"rff.lengthscales", "at least one", "'[]'"});
  refused("rff: {lengthscales: [0.1]}\n", {},
          {"test.yaml:3: rff.lengthscales", "one length scale per input dimension", "2 for this",
           "1 given", "[0.1]"});
  refused("", {"rff.lengthscales=[0.1,0.2,0.3]"},
          {"test.yaml: rff.lengthscales", "per input dimension", "3 given", "[0.1, 0.2, 0.3]"});
  refused("algorithm: rgpe\nrff: {lengthscales: [0.1, 0.2, 0.3]}\n", {},
          {"rff.lengthscales", "per input dimension", "3 given"});
  // Both alternatives given.
  refused("rff: {lengthscale: 0.2, lengthscales: [0.1, 0.3]}\n", {},
          {"rff.lengthscales", "give either rff.lengthscales or rff.lengthscale, not both",
           "test.yaml:3: rff.lengthscale"});
  refused("rff: {lengthscale: 0.2}\n", {"rff.lengthscales=[0.1,0.3]"},
          {"rff.lengthscales", "not both"});
  // A key of the algorithms with messages only.
  refused("algorithm: po_gp_ucb\n", {"rff.lengthscales=[0.1,0.3]"},
          {"rff.lengthscales", "a key of algorithms"});
}
