// The registries hold every algorithm, objective family and accountant, in order, each entry
// complete and true to the code it describes: an algorithm builds from its defaults and has its
// name; a family's traits (domain kind, dimension, points, data) match the objectives it
// makes; an accountant's soundness is its is_bound().
#include <catch2/catch.hpp>

#include <filesystem>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/systems/algorithm_registry.hpp"
#include "datasets/landmine/landmine_objective.hpp"
#include "datasets/objective_factory.hpp"
#include "datasets/objective_family_entry.hpp"
#include "sim/config/key_catalog.hpp"
#include "tests/data_sets.hpp"

using namespace fbosim;
using Catch::Matchers::Equals;

TEST_CASE("registries: every expected name, in the documentation's order") {
  CHECK(systems::algorithm_registry().names() ==
        std::vector<std::string>{"fts_de", "ts", "fts", "dp_fts", "dp_fts_de", "fts_target", "rgpe",
                                 "taf", "po_gp_ucb", "gp_ucb", "dp_bo"});
  CHECK(datasets::objective_registry().names() ==
        std::vector<std::string>{"gp_grid", "heterogeneous", "gp_box", "gp_grid2d", "landmine",
                                 "landmine_logistic", "activity", "emnist", "branin",
                                 "test_function", "table", "command", "python"});
  CHECK(privacy::accountant_registry().names() ==
        std::vector<std::string>{"moments", "rdp", "pld", "gdp", "basic"});
  // The same names as the catalog's family choices.
  CHECK(datasets::objective_registry().names() ==
        config::key_catalog().find("objective.family")->doc.choices);
}

TEST_CASE("registries: every accountant is made by its entry, sound exactly when a bound") {
  for (const privacy::AccountantEntry& e : privacy::accountant_registry()) {
    INFO(e.name);
    const auto a = e.make();
    CHECK(a->name() == e.name);
    CHECK(a->is_bound() == e.sound);
    CHECK(privacy::make_accountant(e.name)->name() == e.name);
    CHECK_FALSE(e.summary.empty());
  }
  CHECK_FALSE(privacy::accountant_registry().find("gdp")->sound);
  CHECK_THROWS_WITH(privacy::make_accountant("zcdp"),
                    Equals("unknown accountant 'zcdp'; known: moments, rdp, pld, gdp, basic"));
}

TEST_CASE("registries: every algorithm builds from its defaults on a family it accepts") {
  const datasets::ObjectiveFamilyEntry& grid = *datasets::objective_registry().find("gp_grid");
  for (const protocol::AlgorithmEntry& e : systems::algorithm_registry()) {
    INFO(e.name);
    CHECK_FALSE(e.summary.empty());
    REQUIRE(e.build);
    schema::Options o = e.options;
    o.apply(e.presets);
    // The DE names need P >= 2 (issue 39: with P = 1 they would run FTS / DP-FTS).
    if (e.name == "fts_de" || e.name == "dp_fts_de") o.apply({{"exploration.subregions", 2}});
    const datasets::ObjectiveShape shape = grid.shape(grid.options);
    const protocol::ExperimentFacts facts{
        e.name, 8, "gp_grid", shape.domain, shape.dimension, shape.points, false};
    schema::Problems problems;
    if (e.validate) e.validate(o, facts, problems);
    CHECK(problems.empty());
    const auto system = e.build(o, facts);
    REQUIRE(system);
    CHECK(system->name() == e.name);
    CHECK(e.traits.min_agents >= 1);
    // An algorithm that releases something privately names the keys that set its events.
    if (!system->possible_events(8).empty()) CHECK_FALSE(e.privacy_keys.empty());
    // Every shipped algorithm estimates its own memory and work, each term naming a key.
    protocol::ResourceEstimate estimate;
    system->estimate(facts, estimate);
    CHECK_FALSE(estimate.memory.empty());
    CHECK_FALSE(estimate.work.empty());
    for (const auto* terms : {&estimate.memory, &estimate.work})
      for (const protocol::ResourceTerm& t : *terms) {
        CHECK(t.amount > 0);
        CHECK(t.what.find(" = ") != std::string::npos);
      }
  }
}

TEST_CASE("registries: cross-key conditions name their key (one per condition)") {
  const auto problems = [](const std::string& name, const protocol::ExperimentFacts& f,
                           const std::vector<schema::Preset>& presets) {
    const protocol::AlgorithmEntry& e = systems::algorithm_registry().at(name);
    schema::Options o = e.options;
    o.apply(e.presets);
    o.apply(presets);
    schema::Problems p;
    if (e.validate) e.validate(o, f, p);
    return p;
  };
  using core::DomainKind;
  const protocol::ExperimentFacts grid{"", 6, "gp_grid", DomainKind::grid, 1, 1000, false};
  const protocol::ExperimentFacts box{"", 6, "gp_box", DomainKind::box, 2, 0, false};
  const protocol::ExperimentFacts grid2d{"", 6, "gp_grid2d", DomainKind::grid, 2, 400, false};
  const protocol::ExperimentFacts landmine{"", 6, "landmine", DomainKind::box, 2, 0, true};
  CHECK(problems("fts_de", grid, {{"exploration.subregions", 7}}) ==
        schema::Problems{{"exploration.subregions", "must be in [1, agents.count = 6]"}});
  CHECK(problems("fts", grid, {{"exploration.subregions", 2}}) ==
        schema::Problems{{"exploration.subregions",
                          "algorithm fts has no distributed exploration (P = 1); use fts_de for "
                          "P > 1"}});
  CHECK(problems("fts", grid, {{"server.dp", true}}) ==
        schema::Problems{{"server.dp",
                          "algorithm fts runs without DP (server.dp must be false or "
                          "left out); with DP, use algorithm dp_fts"}});
  // Issue 28: each name is its paper's algorithm, fts_de without DP and dp_fts_de with it.
  CHECK(problems("fts_de", grid, {{"server.dp", true}, {"exploration.subregions", 2}}) ==
        schema::Problems{{"server.dp",
                          "algorithm fts_de runs without DP (server.dp must be false "
                          "or left out); with DP, use algorithm dp_fts_de"}});
  CHECK(problems("dp_fts_de", grid, {{"server.dp", false}, {"exploration.subregions", 2}}) ==
        schema::Problems{{"server.dp",
                          "algorithm dp_fts_de runs with DP (server.dp must be true "
                          "or left out); without DP, use algorithm fts_de"}});
  CHECK(problems("fts_de", grid, {{"server.dp", false}, {"exploration.subregions", 2}}).empty());
  // Issue 39: a DE name with P = 1 would run FTS / DP-FTS under its name.
  CHECK(problems("dp_fts_de", grid, {}) ==
        schema::Problems{{"exploration.subregions",
                          "1 gives DP-FTS (no distributed exploration) under algorithm dp_fts_de; "
                          "set exploration.subregions >= 2 (P = 2 is DP-FTS-DE's synthetic "
                          "setting) or use algorithm: dp_fts"}});
  // exact local TS and PO-GP-UCB: any finite domain by its traits (a grid of any dimension, a
  // table whose points are known only when its file is read), never a box.
  const protocol::ExperimentFacts table{"", 6, "table", DomainKind::finite_set, 0, 0, false};
  CHECK(problems("ts", box, {{"local_ts.method", std::string("exact")}}).size() == 1);
  CHECK(problems("ts", landmine, {{"local_ts.method", std::string("exact")}}).size() == 1);
  for (const auto& f : {grid, grid2d, table}) {
    CHECK(problems("ts", f, {{"local_ts.method", std::string("exact")}}).empty());
    CHECK(problems("gp_ucb", f, {}).empty());
  }
  CHECK(problems("po_gp_ucb", table, {{"agents.init_points", 100000}}).empty());
  CHECK(problems("taf", landmine, {{"target.agents", 6}}).empty());
  CHECK(problems("taf", grid, {{"target.agents", 2}}) ==
        schema::Problems{{"target.agents",
                          "must be 1 on a synthetic family (agent 0, the target, sees the base "
                          "function f)"}});
  CHECK(problems("po_gp_ucb", box, {}).front().key == "objective.family");
  CHECK(problems("po_gp_ucb", grid2d, {{"agents.init_points", 401}}) ==
        schema::Problems{{"agents.init_points", "must be at most the 400 points of the dataset"}});
  CHECK(problems("gp_ucb", grid2d, {{"agents.init_points", 400}}).empty());
}

TEST_CASE("registries: what an algorithm's name fixes (the keys a --grid of algorithms sets)") {
  const auto fixed = [](const std::string& name) {
    std::vector<std::string> out;
    for (const auto& f : systems::algorithm_registry().at(name).fixed)
      out.push_back(f.path + "=" + f.value + " (" + f.why + ")");
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(fixed("fts") ==
        V{"server.dp=false (which runs without DP)", "exploration.subregions=1 (which has P = 1)"});
  CHECK(fixed("dp_fts") ==
        V{"server.dp=true (which runs with DP)", "exploration.subregions=1 (which has P = 1)"});
  CHECK(fixed("fts_de") == V{"server.dp=false (which runs without DP)"});
  CHECK(fixed("dp_fts_de") == V{"server.dp=true (which runs with DP)"});
  for (const char* name : {"ts", "fts_target", "rgpe", "taf", "po_gp_ucb", "gp_ucb", "dp_bo"})
    CHECK(fixed(name).empty());
}

TEST_CASE("registries: a family's traits are those of the objectives it makes") {
  for (const datasets::ObjectiveFamilyEntry& e : datasets::objective_registry()) {
    INFO(e.name);
    CHECK_FALSE(e.summary.empty());
    schema::Options o = e.options;
    o.apply(e.presets);
    const datasets::ObjectiveShape shape = e.shape(o);
    if (e.needs_data) {
      CHECK_FALSE(e.optimum_known);
      CHECK(shape.domain == core::DomainKind::box);
      continue;
    }
    // The user objectives need the user's file, program or function: their traits are tested
    // in tests/datasets/{table,command,python}.
    if (e.name == "table" || e.name == "command" || e.name == "python") continue;
    // Small settings, so that the grid families' samplers are quick.
    if (o.has("objective.grid_points")) o.set("objective.grid_points", 50);
    if (o.has("objective.grid_side")) o.set("objective.grid_side", 7);
    const datasets::ObjectiveShape small = e.shape(o);
    const auto family = e.make(o, "unused");
    const core::RngFactory rng(1, 0);
    const auto objectives = family->make(3, rng);
    REQUIRE(objectives.size() == 3);
    const core::Domain& d = objectives[0]->domain();
    CHECK(d.dim == small.dimension);
    CHECK(d.is_grid() == (small.domain == core::DomainKind::grid));
    CHECK(d.grid.rows() == small.points);
    CHECK(objectives[0]->optimum().has_value() == e.optimum_known);
    CHECK(o.has(small.size_key));
    if (e.name != "branin" && e.name != "test_function")
      CHECK(small.size_key == (small.domain == core::DomainKind::box ? "objective.dim"
                               : e.name == "gp_grid2d"               ? "objective.grid_side"
                                                                     : "objective.grid_points"));
  }
  CHECK(datasets::is_real_world("landmine"));
  CHECK_FALSE(datasets::is_real_world("gp_grid2d"));
  CHECK_FALSE(datasets::is_real_world("no_such_family"));
}

TEST_CASE("registries: the landmine entry loads the published file with its traits") {
  const std::filesystem::path root = fbosim::testing::data_root();
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
  const datasets::ObjectiveFamilyEntry& e = *datasets::objective_registry().find("landmine");
  const auto family = e.make(e.options, root.string());
  CHECK(family->max_agents() == e.max_agents);
  const auto objectives = family->make(2, core::RngFactory(0, 0));
  CHECK(objectives[0]->domain().dim == e.shape(e.options).dimension);
  CHECK_FALSE(objectives[0]->domain().is_grid());
}
