// One body run over every objective family (design note "protocols": contract tests): the
// synthetic ones always, landmine and EMNIST on the shared data, activity on a generated UCI
// HAR tree.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include "activity/har_fixture.hpp"
#include "datasets/activity/activity_objective.hpp"
#include "datasets/emnist/emnist_objective.hpp"
#include "datasets/objective_factory.hpp"
#include "datasets/objective_family_entry.hpp"
#include "datasets/synthetic/synthetic_family.hpp"

using namespace fbosim;
using namespace fbosim::datasets;

namespace {
const std::string kShared = std::string(FBOSIM_SHARED_DIR) + "/datasets";

struct Case {
  std::string name;
  std::function<ObjectiveSpec()> spec;
  int agents;
  bool available;
};

// A family's spec as its registry entry builds it (its defaults and presets): the only way a
// family is built (the typed members and the name chain beside the registry are gone).
ObjectiveSpec from_entry(const std::string& family) {
  ObjectiveSpec s;
  s.family = family;
  const ObjectiveFamilyEntry& e = objective_registry().at(family);
  s.settings = e.options;
  s.settings.apply(e.presets);
  return s;
}

ObjectiveSpec synthetic(const std::string& family) {
  ObjectiveSpec s = from_entry(family);
  s.settings.as<SyntheticSpec>().grid_points = 300;
  s.settings.as<SyntheticSpec>().dim = 3;
  return s;
}

// A small HAR tree for the activity family, written once for the test executable.
const std::string& har_dir() {
  static har_fixture::TempDir dir("contract");
  static const bool written = [] {
    core::RngStream rng(4);
    har_fixture::write_tree(dir.path(), har_fixture::make_rows({1, 2, 3}, 24, 2.0, rng),
                            har_fixture::make_rows({1, 2, 3}, 12, 2.0, rng));
    return true;
  }();
  (void)written;
  static const std::string path = dir.path().string();
  return path;
}

// A family added through the registry, with some of its keys set.
ObjectiveSpec registered(const std::string& family,
                         const std::vector<std::pair<std::string, schema::Value>>& keys) {
  ObjectiveSpec s = from_entry(family);
  for (const auto& [path, value] : keys) s.settings.set(path, value);
  return s;
}

// The user-objective families' inputs (a table, a program, a module), written once.
const std::string& user_dir() {
  static har_fixture::TempDir dir("contract-user");
  static const bool written = [] {
    std::ofstream(dir.path() / "values.csv")
        << "agent,x0,x1,y,f\n0,0.1,0.2,1,1.5\n0,0.4,0.4,2,2\n1,0.1,0.2,0,0\n1,0.4,0.4,3,2.5\n";
    std::ofstream(dir.path() / "contract_user_objective.py")
        << "import json, sys\n"
           "def f(x, agent, seed):\n"
           "    v = -sum((t - 0.1 * agent) ** 2 for t in x)\n"
           "    return (v + (seed % 100) * 1e-3, v)\n"
           "if __name__ == '__main__':\n"
           "    for line in sys.stdin:\n"
           "        q = json.loads(line)\n"
           "        y, v = f(q['x'], q['agent'], q['seed'])\n"
           "        print(json.dumps({'y': y, 'f': v}), flush=True)\n";
    setenv("PYTHONPATH", dir.path().c_str(), 1);  // before the embedded interpreter starts
    return true;
  }();
  (void)written;
  static const std::string path = dir.path().string();
  return path;
}

std::vector<Case> cases() {
  const bool landmine = std::filesystem::exists(kShared + "/landmine/LandmineData.mat");
  const bool emnist = std::filesystem::exists(kShared + "/femnist_digits");
  return {
      {"gp_grid", [] { return synthetic("gp_grid"); }, 4, true},
      {"heterogeneous", [] { return synthetic("heterogeneous"); }, 4, true},
      {"gp_box", [] { return synthetic("gp_box"); }, 3, true},
      {"gp_grid2d",
       [] {
         ObjectiveSpec s = synthetic("gp_grid2d");
         s.settings.as<SyntheticSpec>().grid_side = 15;
         return s;
       },
       2, true},
      {"gp_grid2d, one function for every run",
       [] {
         ObjectiveSpec s = synthetic("gp_grid2d");
         s.settings.as<SyntheticSpec>().grid_side = 15;
         s.settings.as<SyntheticSpec>().same_function = true;
         return s;
       },
       2, true},
      {"landmine",
       [] {
         ObjectiveSpec s = from_entry("landmine");
         s.data_root = kShared;
         return s;
       },
       3, landmine},
      {"activity",
       [] {
         ObjectiveSpec s = from_entry("activity");
         s.settings.as<ActivitySpec>().data_dir = har_dir();
         return s;
       },
       3, true},
      {"emnist",
       [] {
         ObjectiveSpec s = from_entry("emnist");
         s.data_root = kShared;
         s.settings.as<EmnistSpec>().cnn.epochs = 1;
         return s;
       },
       2, emnist},
      {"branin", [] { return registered("branin", {}); }, 3, true},
      {"branin on a grid",
       [] {
         return registered("branin", {{"objective.branin_grid", std::int64_t{12}}});
       },
       2, true},
      {"test_function", [] { return registered("test_function", {}); }, 3, true},
      {"test_function, shifted and rescaled agents",
       [] {
         return registered("test_function", {{"objective.function", std::string("levy")},
                                             {"objective.function_dim", std::int64_t{4}},
                                             {"objective.shift", 0.2},
                                             {"objective.scale", 3.0}});
       },
       3, true},
      {"table",
       [] {
         return registered("table", {{"objective.table", user_dir() + "/values.csv"}});
       },
       2, true},
      {"command",
       [] {
         return registered("command", {{"objective.command", "/usr/bin/python3 " + user_dir() +
                                                                 "/contract_user_objective.py"},
                                       {"objective.inputs", std::int64_t{2}}});
       },
       3, true},
#ifdef FBOSIM_PYTHON_PLUGIN_PATH
      {"python",
       [] {
         (void)user_dir();
         return registered("python",
                           {{"objective.callable", std::string("contract_user_objective:f")},
                            {"objective.inputs", std::int64_t{2}}});
       },
       3, true},
#endif
  };
}

std::vector<double> values(const ObjectiveFamily& family, int agents, std::uint64_t run,
                           const Eigen::VectorXd& x) {
  const core::RngFactory rf(3, run);
  std::vector<double> out;
  for (const auto& o : family.make(agents, rf)) {
    core::RngStream noise(1);
    const Objective::Evaluation e = o->query(x, noise);
    out.push_back(e.f);
    CHECK(std::isfinite(e.y));
    CHECK(std::isfinite(e.f));
    if (const auto opt = o->optimum()) CHECK(*opt >= o->evaluate(x) - 1e-9);
  }
  return out;
}
}  // namespace

TEST_CASE(
    "objective family contract: one objective per agent on one domain, finite values, "
    "draws from the run's streams only") {
  for (const Case& c : cases()) {
    INFO(c.name);
    if (!c.available) {
      WARN("skipped " << c.name << ": no data under " << kShared);
      continue;
    }
    const auto family = make_objective_family(c.spec());
    const core::RngFactory rf(3, 0);
    const auto objectives = family->make(c.agents, rf);
    REQUIRE(static_cast<int>(objectives.size()) == c.agents);
    const core::Domain& domain = objectives[0]->domain();
    for (const auto& o : objectives) CHECK(o->domain().dim == domain.dim);
    const Eigen::VectorXd x =
        domain.is_grid()
            ? Eigen::VectorXd(
                  domain.grid.row(std::min<Eigen::Index>(7, domain.grid.rows() - 1)).transpose())
            : Eigen::VectorXd::Constant(domain.dim, 0.4);
    // Same run, same objectives; another run, other objectives exactly when varies_by_run().
    const std::vector<double> a = values(*family, c.agents, 0, x),
                              b = values(*family, c.agents, 0, x);
    CHECK(a == b);
    CHECK((values(*family, c.agents, 1, x) != a) == family->varies_by_run());
    if (family->max_agents() > 0) CHECK_THROWS(family->make(family->max_agents() + 1, rf));
    // Records (the data an evaluation trains on): one positive count per agent for the
    // real-data families, none for functions, tables and user programs.
    const std::vector<std::int64_t> records = family->records(c.agents);
    const bool real_data = c.name == "landmine" || c.name == "activity" || c.name == "emnist";
    CHECK(records.size() == (real_data ? static_cast<std::size_t>(c.agents) : 0));
    for (std::int64_t r : records) CHECK(r > 0);
    if (real_data) CHECK_THROWS(family->records(family->max_agents() + 1));
  }
}

TEST_CASE("the first `unperturbed` agents of the synthetic families see f itself") {
  for (const char* name : {"gp_grid", "gp_box"}) {
    INFO(name);
    ObjectiveSpec s = synthetic(name);
    s.settings.as<SyntheticSpec>().unperturbed = 1;
    const auto with = make_objective_family(s);
    s.settings.as<SyntheticSpec>().perturbation = 0;
    const auto base = make_objective_family(s);  // every agent sees f
    const core::RngFactory rf(9, 2);
    const auto a = with->make(3, rf), f = base->make(3, rf);
    const Eigen::VectorXd x = a[0]->domain().is_grid()
                                  ? Eigen::VectorXd(a[0]->domain().grid.row(11).transpose())
                                  : Eigen::VectorXd::Constant(3, 0.3);
    CHECK(a[0]->evaluate(x) == f[0]->evaluate(x));
    CHECK(a[1]->evaluate(x) != f[1]->evaluate(x));
  }
}

TEST_CASE("a family built without settings is its registry entry's, presets included") {
  // make_objective_family has one path, the registry's: a spec that names only the family gets
  // the entry's defaults with its presets (gp_grid2d: objective.lengthscale 1.25), the same
  // family a config naming only the family reads; no second path builds from per-family
  // members of ObjectiveSpec and the struct's bare defaults.
  for (const char* name : {"gp_grid2d", "branin", "test_function"}) {
    INFO(name);
    ObjectiveSpec bare;
    bare.family = name;
    const auto a = make_objective_family(bare), b = make_objective_family(from_entry(name));
    const core::RngFactory rf(5, 0);
    const auto oa = a->make(2, rf), ob = b->make(2, rf);
    const Eigen::VectorXd x = oa[0]->domain().is_grid()
                                  ? Eigen::VectorXd(oa[0]->domain().grid.row(7).transpose())
                                  : Eigen::VectorXd::Constant(oa[0]->domain().dim, 0.3);
    for (std::size_t n = 0; n < 2; ++n) CHECK(oa[n]->evaluate(x) == ob[n]->evaluate(x));
  }
  ObjectiveSpec unknown;
  unknown.family = "gp_ball";
  CHECK_THROWS_WITH(make_objective_family(unknown), "objective.family: unknown family 'gp_ball'");
}
