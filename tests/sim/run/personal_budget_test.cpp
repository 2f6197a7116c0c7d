// Personal rates and budgets (personal.*, issue 42 sec. 2) through whole runs, against
// independent computations: each agent's ledger against the subsampled Gaussian at its own q_n
// composed by hand with a fresh accountant; the budget stop against the largest number of
// releases whose hand-composed epsilon stays within the budget; a property over random
// budgets, rates and dropouts that no agent's epsilon ever exceeds its budget; the replay of
// `fbosim privacy CONFIG` against the run's agents.csv; the refusals.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/systems/fts_de_system.hpp"
#include "core/rng.hpp"
#include "core/thread_pool.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/run/personal_replay.hpp"
#include "sim/run/run_engine.hpp"

using namespace fbosim;

namespace {

const char* kPersonalRun =
    "rounds: 6\nruns: 1\nseed: 9\n"
    "objective: {family: gp_grid, grid_points: 100, lengthscale: 0.05}\n"
    "agents: {count: 6, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 10, lengthscale: 0.05}\nlocal_ts: {features: 20}\n"
    "server: {dp: true, sampling_rate: 0.5, noise_multiplier: 1.5, clip_norm: 5,\n"
    "         accountant: rdp, delta: 1.0e-5}\n";

config::ExperimentSpec personal_spec(const std::vector<std::string>& sets) {
  return config::load_config_text(kPersonalRun, "personal.yaml", "personal", sets).spec;
}

// Every snapshot of agents.csv: (round, agent) -> the value columns after `agent`.
std::map<std::pair<int, int>, std::vector<double>> personal_rows(const run::RunResult& r) {
  std::map<std::pair<int, int>, std::vector<double>> out;
  std::istringstream in(r.agents_csv);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ls(line);
    for (std::string c; std::getline(ls, c, ',');) cells.push_back(c);
    std::vector<double> values;
    for (std::size_t k = 4; k < cells.size(); ++k) values.push_back(std::stod(cells[k]));
    out[{std::stoi(cells[1]), std::stoi(cells[3])}] = values;
  }
  return out;
}

run::RunResult personal_run(const config::ExperimentSpec& spec, int run = 0) {
  core::ThreadPool pool(1);
  const run::RunEngine engine(spec, pool);
  return engine.run(run);
}

// epsilon of k releases of the subsampled Gaussian (q, z) under a fresh rdp accountant.
double hand_epsilon(double q, double z, int k, int agents) {
  if (k == 0) return 0;
  auto acc = privacy::make_accountant("rdp");
  acc->compose(privacy::DpEvent::poisson_sampled(q, privacy::DpEvent::gaussian(z)), k);
  (void)agents;
  return acc->epsilon(1e-5).epsilon;
}

std::string list(const std::vector<double>& v) { return fmt::format("[{}]", fmt::join(v, ",")); }

}  // namespace

TEST_CASE(
    "personal rates: agent n's ledger is the subsampled Gaussian at its q_n composed T "
    "times") {
  const std::vector<double> rates{0.1, 0.3, 0.5, 0.7, 0.9, 1.0};
  const config::ExperimentSpec spec = personal_spec({"personal.sampling_rates=" + list(rates)});
  REQUIRE(spec.per_agent_ledgers);
  const run::RunResult r = personal_run(spec);
  const auto rows = personal_rows(r);
  for (int n = 0; n < 6; ++n) {
    const double hand = hand_epsilon(rates[static_cast<std::size_t>(n)], 1.5, 6, 6);
    const std::vector<double>& v = rows.at({6, n});
    INFO("agent " << n << " hand " << hand << " ledger " << v[0]);
    CHECK(v[0] == Approx(hand).epsilon(1e-12));
    CHECK(v[1] == Approx(hand).epsilon(1e-12));  // epsilon_broadcast: the same (central)
  }
  CHECK(r.final_epsilon == Approx(hand_epsilon(1.0, 1.5, 6, 6)).epsilon(1e-12));
}

TEST_CASE("personal budgets: each agent takes part in exactly the releases its budget allows") {
  // Central: every eligible agent is charged every release, so agent n is charged the largest
  // k <= T releases whose composition stays within its budget, and stops before release k.
  const std::vector<double> rates{0.2, 0.5, 1.0, 0.2, 0.5, 1.0};
  const std::vector<double> budgets{0.6, 1.5, 4.0, 100, 2.0, 9.0};
  const config::ExperimentSpec spec = personal_spec(
      {"personal.sampling_rates=" + list(rates), "personal.budgets=" + list(budgets)});
  const run::RunResult r = personal_run(spec);
  const auto rows = personal_rows(r);
  int stopped = 0, kept = 0;
  for (std::size_t n = 0; n < 6; ++n) {
    int k = 0;
    while (k < 6 && hand_epsilon(rates[n], 1.5, k + 1, 6) <= budgets[n]) ++k;
    const std::vector<double>& v = rows.at({6, static_cast<int>(n)});
    INFO("agent " << n << " releases " << k << " ledger " << v[0]);
    CHECK(v[0] == Approx(hand_epsilon(rates[n], 1.5, k, 6)).margin(1e-12));
    CHECK(v[0] <= budgets[n]);
    CHECK(v[2] == (k < 6 ? 0 : 1));  // eligible
    (k < 6 ? stopped : kept)++;
  }
  // A stopped agent carries on with local TS: no step after its stop follows the broadcast.
  std::istringstream trace(r.trace_csv);
  std::string line;
  while (std::getline(trace, line)) {
    std::vector<std::string> cells;
    std::stringstream ls(line);
    for (std::string c; std::getline(ls, c, ',');) cells.push_back(c);
    const int agent = std::stoi(cells[1]), round = std::stoi(cells[2]);
    if (rows.at({round, agent})[2] == 0 && round > 0) {  // stopped before round - 1's release
      INFO("agent " << agent << " round " << round);
      CHECK(cells.back() == "local");
    }
  }
  CHECK(stopped >= 3);  // the test stops agents mid-run
  CHECK(kept >= 1);
}

TEST_CASE(
    "personal budgets: no agent's epsilon ever exceeds its budget (random budgets, rates "
    "and dropouts)") {
  core::RngStream gen(2026);
  for (int trial = 0; trial < 8; ++trial) {
    const int N = 3 + static_cast<int>(gen.uniform_int(5));
    std::vector<double> rates, budgets;
    for (int n = 0; n < N; ++n) {
      rates.push_back(0.05 + 0.95 * gen.uniform());
      budgets.push_back(0.2 + 8 * gen.uniform());
    }
    std::vector<std::string> sets{
        fmt::format("agents.count={}", N), "personal.sampling_rates=" + list(rates),
        "personal.budgets=" + list(budgets), fmt::format("seed={}", trial)};
    const bool secure = trial % 2 == 1;
    if (secure) {
      sets.push_back("server.trust=distributed");
      sets.push_back("server.sampled_by=agents");
      sets.push_back(fmt::format("server.dropout_padding={}", 0.1 + 0.4 * gen.uniform()));
      sets.push_back(fmt::format("network.dropout={}", 0.5 * gen.uniform()));
    }
    const config::ExperimentSpec spec = personal_spec(sets);
    const run::RunResult r = personal_run(spec);
    for (const auto& [key, v] : personal_rows(r)) {
      INFO("trial " << trial << " secure " << secure << " round " << key.first << " agent "
                    << key.second << " epsilon " << v[0]);
      CHECK(v[0] <= budgets[static_cast<std::size_t>(key.second)]);
    }
  }
}

TEST_CASE("personal budgets: `fbosim privacy`'s replay equals the run's agents.csv") {
  const config::ExperimentSpec spec = personal_spec(
      {"agents.count=10", "personal.tiers.fractions=[0.3,0.3,0.4]",
       "personal.tiers.sampling_rates=[0.2,0.5,0.9]", "personal.tiers.budgets=[1,4,16]",
       "server.trust=distributed", "server.sampled_by=agents", "server.dropout_padding=0.3",
       "network.dropout=0.25", "runs=2"});
  const std::vector<int>& tiers =
      systems::fts_de_config(spec.system.get())->mechanism.personal.tiers;
  for (int run = 0; run < 2; ++run) {
    const run::RunResult r = personal_run(spec, run);
    run::PersonalReplay replay = run::replay_personal_ledgers(spec, run);
    const std::vector<double>& eps = replay.ledgers.epsilons(0, "in the test");
    const auto rows = personal_rows(r);
    for (int n = 0; n < 10; ++n) {
      const std::vector<double>& v = rows.at({6, n});
      INFO("run " << run << " agent " << n);
      CHECK(v[0] == eps[static_cast<std::size_t>(n)]);
      CHECK(v[2] == replay.eligible[static_cast<std::size_t>(n)]);
      CHECK(v[3] == tiers[static_cast<std::size_t>(n)]);
    }
  }
}

TEST_CASE("personal keys: the refused combinations name the key and say why") {
  const auto fails = [](const std::vector<std::string>& sets, const std::string& key,
                        const std::string& why) {
    INFO(fmt::format("{}", fmt::join(sets, " ")));
    CHECK_THROWS_WITH(personal_spec(sets), Catch::Contains(key) && Catch::Contains(why));
  };
  const std::string rates = "personal.sampling_rates=[0.1,0.2,0.3,0.4,0.5,0.6]";
  const std::string budgets = "personal.budgets=[1,2,3,4,5,6]";
  fails({"personal.sampling_rates=[0.1,0.2]"}, "personal.sampling_rates",
        "one entry per agent (agents.count) (6), got 2");
  fails({rates, "server.sampling=fixed"}, "server.sampling", "use server.sampling: poisson");
  fails({rates, "server.clipping=adaptive"}, "server.clipping", "server.clipping: fixed");
  fails({budgets, "server.budget=3"}, "server.budget", "personal.budgets");
  fails({budgets, "server.trust=local"}, "personal.budgets", "reveal its selections");
  fails({budgets, "server.trust=distributed"}, "personal.budgets", "reveal its selections");
  fails({budgets, "server.trust=distributed", "server.sampled_by=agents", "network.dropout=0.1"},
        "personal.budgets", "server.dropout_padding > 0");
  // Under the asynchronous schedules with the trusted server only (schedule_stops_test).
  CHECK_NOTHROW(personal_spec({rates, budgets, "schedule.kind=buffered"}));
  fails({rates, "schedule.kind=buffered", "server.trust=local"}, "server.trust",
        "applies only under schedule.kind: rounds");
  CHECK_NOTHROW(personal_spec({budgets, "server.trust=distributed", "server.sampled_by=agents",
                               "server.dropout_padding=0.2", "network.dropout=0.1"}));
  CHECK_NOTHROW(personal_spec({rates, "server.trust=local"}));
  fails({rates, "server.trust=local", "server.local_coin=true", "server.accountant=rdp"},
        "server.local_coin", "the one rate server.sampling_rate");
}
