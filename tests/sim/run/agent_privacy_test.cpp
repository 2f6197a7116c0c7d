// Per-agent ledgers in a run (issues 41 and 42): run::AgentPrivacy against accountants that
// compose each agent's releases one at a time, and the outputs of a run that keeps them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "algorithms/privacy/accountant_registry.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/output/csv_table.hpp"
#include "sim/run/agent_privacy.hpp"
#include "sim/run/experiment_runner.hpp"

using namespace fbosim;
using namespace fbosim::run;

namespace {
const char* kSmall =
    "rounds: 5\nruns: 2\nseed: 11\n"
    "objective: {family: gp_grid, grid_points: 200, lengthscale: 0.05}\n"
    "agents: {count: 5, init_points: 3}\nexploration: {subregions: 2}\n"
    "rff: {features: 20, lengthscale: 0.05}\nlocal_ts: {features: 30}\n"
    "server: {dp: true, sampling_rate: 0.5, noise_multiplier: 1.2, clip_norm: 5, "
    "accountants: rdp}\n";

config::ExperimentSpec small_spec(bool per_agent) {
  config::ExperimentSpec spec = config::load_config_text(kSmall, "small.yaml", "small", {}).spec;
  spec.per_agent_ledgers = per_agent;
  return spec;
}

// Epsilon of `k` copies of `e` composed one at a time by a fresh accountant.
double one_at_a_time(const std::string& accountant, const privacy::DpEvent& e, int k,
                     double delta) {
  auto a = privacy::make_accountant(accountant);
  for (int i = 0; i < k; ++i) a->compose(e);
  return k == 0 ? 0.0 : a->epsilon(delta).epsilon;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Column `name` of row i as a number.
double number(const output::CsvTable& t, std::size_t i, const std::string& name) {
  return std::stod(t.rows.at(i).at(static_cast<std::size_t>(t.column(name, "test"))));
}

std::string run_to(const config::ExperimentSpec& spec, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("fbosim_agent_privacy_" + name);
  std::filesystem::remove_all(dir);
  RunOptions o;
  o.threads = 2;
  o.out_dir = dir.string();
  o.progress = false;
  run_experiment(spec, config::load_config_text(kSmall, "small.yaml", "small", {}).resolved, o);
  return dir.string();
}
}  // namespace

TEST_CASE(
    "AgentPrivacy: each agent's epsilon is its own releases composed, the run's the largest") {
  const config::ExperimentSpec spec = small_spec(true);
  AgentPrivacy p(spec);
  const privacy::DpEvent g = privacy::DpEvent::gaussian(1.5);
  const privacy::DpEvent s = privacy::DpEvent::poisson_sampled(0.3, g);
  p.charge_all(s, 2);
  p.charge(1, g);
  p.charge(3, g, 3);
  p.charge(4, privacy::DpEvent::noop());  // charges nothing
  const double delta = spec.delta();
  for (std::size_t a = 0; a < 2; ++a) {
    const std::string name = a == 0 ? spec.server.accountant : "rdp";
    const std::vector<double>& eps = p.epsilons(a, "in a test");
    REQUIRE(eps.size() == 5);
    const std::vector<int> own{0, 1, 0, 3, 0};
    for (int n = 0; n < 5; ++n) {
      auto acc = privacy::make_accountant(name);
      acc->compose(s);
      acc->compose(s);
      for (int i = 0; i < own[static_cast<std::size_t>(n)]; ++i) acc->compose(g);
      INFO(name << " agent " << n);
      CHECK(eps[static_cast<std::size_t>(n)] == Approx(acc->epsilon(delta).epsilon).epsilon(1e-9));
    }
    CHECK(p.spent("in a test")[a] == *std::max_element(eps.begin(), eps.end()));
  }
  // Agents 0, 2 and 4 alike: the median is theirs, the 90th percentile and the max agent 3's.
  const privacy::EpsilonSpread sp = p.spread("in a test");
  CHECK(sp.median == p.epsilons(0, "")[0]);
  CHECK(sp.max == p.epsilons(0, "")[3]);
  CHECK(sp.p90 == sp.max);
  CHECK(p.ledgers().distinct() == 3);
}

TEST_CASE("AgentPrivacy: an agent charged nothing has epsilon 0, and an approximation is refused") {
  AgentPrivacy p(small_spec(true));
  CHECK(p.spent("x") == std::vector<double>{0.0, 0.0});
  p.charge(2, privacy::DpEvent::gaussian(2.0));
  CHECK(p.epsilons(0, "x")[0] == 0.0);
  CHECK(p.epsilons(0, "x")[2] ==
        Approx(one_at_a_time(small_spec(true).server.accountant, privacy::DpEvent::gaussian(2.0), 1,
                             small_spec(true).delta()))
            .epsilon(1e-12));
  config::ExperimentSpec gdp = small_spec(true);
  gdp.server.accountant = "gdp";
  CHECK_THROWS_WITH(AgentPrivacy(gdp), Catch::Contains("approximation, not a bound"));
}

TEST_CASE(
    "a run with per-agent ledgers writes agents.csv and the spread, its epsilons are the run's") {
  const std::string shared = run_to(small_spec(false), "shared");
  const std::string own = run_to(small_spec(true), "own");
  CHECK_FALSE(std::filesystem::exists(shared + "/agents.csv"));
  const output::CsvTable agents = output::CsvTable::read(own + "/agents.csv");
  REQUIRE(agents.header == std::vector<std::string>{"run", "round", "time", "agent", "epsilon"});
  CHECK(agents.rows.size() == 2 * 6 * 5);  // runs x (rounds + 1) x agents
  const output::CsvTable with = output::CsvTable::read(own + "/summary.csv");
  const output::CsvTable without = output::CsvTable::read(shared + "/summary.csv");
  CHECK(with.header[5] == "epsilon");
  CHECK(with.header[6] == "epsilon_median");
  CHECK(with.header[7] == "epsilon_p90");
  CHECK(without.header[6] == "delta");
  for (std::size_t t = 0; t < 6; ++t) {
    // Every agent is charged for every release (the central model under rounds): the agents'
    // ledgers agree with the single ledger (composed by count there, one at a time here).
    const double eps = number(without, t, "epsilon");
    CHECK(number(with, t, "epsilon") == Approx(eps).epsilon(1e-9));
    CHECK(number(with, t, "epsilon_median") == number(with, t, "epsilon"));
    CHECK(number(with, t, "epsilon_p90") == number(with, t, "epsilon"));
    CHECK(number(with, t, "epsilon_rdp") ==
          Approx(number(without, t, "epsilon_rdp")).epsilon(1e-9));
    CHECK(number(with, t, "mean_regret") == number(without, t, "mean_regret"));
  }
  for (std::size_t i = 0; i < agents.rows.size(); ++i) {
    const auto t = static_cast<std::size_t>(number(agents, i, "round"));
    CHECK(number(agents, i, "epsilon") == number(with, t, "epsilon"));
  }
  CHECK(slurp(own + "/trace.csv") == slurp(shared + "/trace.csv"));
}
