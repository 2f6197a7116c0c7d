// The key catalog is the table behind the configs (issue #14), a view of the declarations
// since issue 25: every key read is in it, every entry is read by some algorithm, the default
// it documents (the option struct's value, presets applied) is the one the reader resolves
// (derived defaults and conditional keys included), its bounds are enforced, and
// docs/CONFIG.md's tables are generated from it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "algorithms/systems/algorithm_registry.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/key_catalog.hpp"
#include "tests/data_sets.hpp"

using namespace fbosim::config;

namespace {
const std::vector<std::string> kFamilies = {
    "gp_grid",  "heterogeneous", "gp_box", "gp_grid2d",     "landmine", "landmine_logistic",
    "activity", "emnist",        "branin", "test_function", "table",    "command",
    "python"};

// The keys a family cannot do without (the user objectives' file, program or function).
std::string required(const std::string& family) {
  if (family == "table") return ", table: t.csv";
  if (family == "command") return ", command: cat";
  if (family == "python") return ", callable: 'm:f'";
  return "";
}

// PO-GP-UCB and its baseline need the curator's finite dataset (a grid family).
bool runs_on(const std::string& algorithm, const std::string& family) {
  if (algorithm != "po_gp_ucb" && algorithm != "gp_ucb") return true;
  return family == "gp_grid" || family == "heterogeneous" || family == "gp_grid2d";
}

// A minimal config of an algorithm on a family (loading never reads data).
LoadedConfig minimal(const std::string& algorithm, const std::string& family,
                     const std::vector<std::string>& sets = {}) {
  // The DE names need P >= 2 (issue 39).
  const std::string p =
      algorithm == "fts_de" || algorithm == "dp_fts_de" ? "exploration: {subregions: 2}\n" : "";
  return load_config_text("algorithm: " + algorithm + "\nobjective: {family: " + family +
                              required(family) + "}\nagents: {count: 6}\n" + p,
                          "t.yaml", "t", sets);
}

void flatten(const YAML::Node& n, const std::string& prefix,
             std::map<std::string, std::string>& out) {
  for (const auto& kv : n) {
    const std::string key = prefix + kv.first.as<std::string>();
    if (kv.second.IsMap()) {
      flatten(kv.second, key + ".", out);
    } else {
      // (a list, e.g. timing.tiers.fractions, is only given here, never compared)
      out[key] = kv.second.IsNull()       ? ""
                 : kv.second.IsSequence() ? "[list]"
                                          : kv.second.as<std::string>();
    }
  }
}

bool same_value(const std::string& a, const std::string& b) {
  if (a == b) return true;
  try {
    std::size_t ia = 0, ib = 0;
    const double x = std::stod(a, &ia), y = std::stod(b, &ib);
    return ia == a.size() && ib == b.size() && x == y;
  } catch (const std::exception&) {
    return false;
  }
}
}  // namespace

TEST_CASE("every catalog entry is read by some algorithm, with the defaults the catalog states") {
  std::set<std::string> read;
  // Keys read only in some settings: sources.init_points with TS histories, acquisition.direct.*
  // with acquisition.method: direct, schedule.*, timing.* and output.* under the asynchronous
  // schedules (issue 41). A setting applies where its key is read (a schedule: where the algorithm
  // declares it).
  const std::string trace =
      (std::filesystem::temp_directory_path() / "fbosim_catalog_trace.csv").string();
  std::ofstream(trace) << "agent,start,end\n0,0,9\n1,0,9\n2,0,9\n3,0,9\n4,0,9\n5,0,9\n";
  const std::vector<std::vector<std::string>> settings = {
      {},
      {"sources.history=ts"},
      {"acquisition.method=direct"},
      {"schedule.kind=buffered", "timing.duration.model=uniform",
       "timing.availability.model=exponential"},
      {"schedule.kind=periodic", "timing.duration.model=half_normal",
       "timing.availability.model=fixed"},
      {"schedule.kind=deadline", "timing.duration.model=pareto", "timing.availability.model=trace",
       "timing.availability.trace=" + trace, "timing.tiers.fractions=[0.5]",
       "timing.tiers.slowdowns=[3]"},
      {"schedule.kind=buffered", "timing.duration.model=lognormal"},
      {"schedule.kind=periodic", "output.time_grid=11", "output.time_end=5",
       "output.target_regret=0.1"},
      {"schedule.kind=latest", "schedule.age_weight=fedasync"}};
  const auto declares = [](const std::string& algorithm, const std::string& kind) {
    for (const auto s : fbosim::systems::algorithm_registry().at(algorithm).traits.schedules)
      if (fbosim::protocol::kScheduleKindNames.name(s) == kind) return true;
    return false;
  };
  for (const std::string& algorithm : fbosim::systems::algorithm_registry().names())
    for (const std::string& family : kFamilies)
      for (const auto& sets : settings) {
        if (!runs_on(algorithm, family)) continue;
        const std::string gate = sets.empty() ? "" : sets[0].substr(0, sets[0].find('='));
        if (!sets.empty() && !key_catalog().find(gate)->read_by(algorithm)) continue;
        if (gate == "schedule.kind" && !declares(algorithm, sets[0].substr(gate.size() + 1)))
          continue;
        // Age weights where a server aggregates messages.
        if (sets.size() > 1 && sets[1].rfind("schedule.age_weight", 0) == 0 &&
            !fbosim::systems::algorithm_registry().at(algorithm).traits.age_weights)
          continue;
        INFO(algorithm << " on " << family);
        const LoadedConfig c = minimal(algorithm, family, sets);
        std::map<std::string, std::string> values;
        flatten(c.resolved, "", values);
        for (const auto& [key, value] : values) {
          read.insert(key);
          const fbosim::schema::CatalogKey* doc = key_catalog().find(key);
          REQUIRE(doc);
          CHECK(doc->read_by(algorithm));
          CHECK(doc->applies_to_family(family));
          const auto want = doc->default_for(algorithm, family);
          if (!want || !doc->doc.default_note.empty() || key == "algorithm" ||
              key == "agents.count" || key == "objective.family" ||
              key == "exploration.subregions" ||  // given (P = 2) for the DE names
              std::any_of(sets.begin(), sets.end(),
                          [&](const std::string& s) { return s.rfind(key + "=", 0) == 0; }))
            continue;
          INFO(key << " = " << value << ", catalog default " << want->text);
          CHECK(same_value(value, want->text));
        }
      }
  for (const fbosim::schema::CatalogKey& k : key_catalog().keys()) {
    // Read only with an objective's records, which loading then reads from its data: the next
    // test case.
    if (k.doc.path == "timing.duration.reference_records") continue;
    INFO(k.doc.path);
    CHECK(read.count(k.doc.path) == 1);
  }
}

TEST_CASE("the records keys are read on a family with records, with the catalog's defaults") {
  if (!fbosim::testing::have_data("landmine")) return;
  for (const char* algorithm : {"ts", "fts", "dp_fts", "fts_de", "dp_fts_de"}) {
    INFO(algorithm);
    const LoadedConfig c = minimal(
        algorithm, "landmine",
        {"schedule.kind=periodic", "schedule.releases=2", "timing.duration.scale_by=records",
         "datasets.root=" + fbosim::testing::data_root()});
    const fbosim::schema::CatalogKey* doc = key_catalog().find("timing.duration.reference_records");
    REQUIRE(doc);
    CHECK(doc->read_by(algorithm));
    const auto want = doc->default_for(algorithm, "landmine");
    REQUIRE(want);
    CHECK(same_value(c.resolved["timing"]["duration"]["reference_records"].as<std::string>(),
                     want->text));
  }
}

TEST_CASE("every documented bound is enforced, naming the key and the value") {
  for (const fbosim::schema::CatalogKey& k : key_catalog().keys()) {
    if (!k.doc.range || !k.doc.range->bounded()) continue;
    // An algorithm and a family that read the key.
    std::string algorithm, family;
    for (const std::string& a : fbosim::systems::algorithm_registry().names())
      if (k.read_by(a) && algorithm.empty()) algorithm = a;
    for (const std::string& f : kFamilies)
      if (k.applies_to_family(f) && runs_on(algorithm, f) && family.empty()) family = f;
    const fbosim::schema::Range& b = *k.doc.range;
    for (const bool low : {true, false}) {
      const auto end = low ? b.lo : b.hi;
      if (!end) continue;
      const bool open = low ? b.lo_open : b.hi_open;
      // Just outside: the end itself when open, else one step beyond (integers take 1).
      const double step = std::abs(*end) > 0 ? std::abs(*end) * 1e-6 : 1e-6;
      double outside =
          open ? *end : (low ? *end - std::max(1.0, step) : *end + std::max(1.0, step));
      if (!open && std::abs(*end) < 1 && *end != std::floor(*end))
        outside = low ? *end - step : *end + step;
      std::ostringstream v;
      v.precision(17);
      v << outside;
      INFO(k.doc.path << " = " << v.str() << " (" << algorithm << ", " << family << ")");
      CHECK_THROWS_WITH(minimal(algorithm, family, {k.doc.path + "=" + v.str()}),
                        Catch::Contains(k.doc.path));
    }
  }
}

TEST_CASE("a key of another algorithm or family says whose it is") {
  CHECK_THROWS_WITH(minimal("fts_target", "gp_grid", {"exploration.subregions=2"}),
                    Catch::Contains("exploration.subregions") &&
                        Catch::Contains("not of fts_target") && Catch::Contains("dp_fts_de"));
  CHECK_THROWS_WITH(minimal("ts", "gp_grid", {"objective.cv_folds=3"}),
                    Catch::Contains("objective.family landmine") && Catch::Contains("gp_grid"));
  CHECK_THROWS_WITH(minimal("ts", "gp_grid", {"rff.featurs=3"}), Catch::Contains("did you mean"));
}

TEST_CASE("docs/CONFIG.md's key tables are the catalog's (fbosim keys --markdown)") {
  std::ifstream in(std::string(FBOSIM_SOURCE_DIR) + "/docs/CONFIG.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::string begin = "<!-- keys: generated by `fbosim keys --markdown`; do not edit -->\n";
  const std::string end = "<!-- end of the generated keys -->";
  const auto a = doc.find(begin), b = doc.find(end);
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  for (const fbosim::schema::CatalogKey& k : key_catalog().keys()) {
    INFO(k.doc.path << " has no section in keys_markdown()");
    CHECK(keys_markdown().find("| `" + k.doc.path + "` |") != std::string::npos);
  }
  CHECK(keys_markdown().find("### Other keys") == std::string::npos);
  INFO("regenerate with tools/update_config_doc.sh");
  CHECK(doc.substr(a + begin.size(), b - a - begin.size()) == keys_markdown());
}
