// The stop rules and personal privacy under the asynchronous schedules (docs/TIME.md "Stop rules
// and personal budgets"; run::schedule_stops), against independent computations: the releases
// of the time line (plan_schedule, public) counted per agent and composed by hand with a fresh
// accountant; the degenerate schedules against the papers' rounds; properties over random
// configs that the epsilon column stays within server.budget and each agent's epsilon within
// its personal budget; the run against `fbosim privacy`'s replay.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/agents/exploration_schedule.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/privacy/dp_event.hpp"
#include "core/rng.hpp"
#include "core/thread_pool.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/run/experiment_runner.hpp"
#include "sim/run/personal_replay.hpp"
#include "sim/run/run_engine.hpp"
#include "sim/run/schedule_plan.hpp"
#include "sim/run/schedule_stops.hpp"

using namespace fbosim;
using namespace fbosim::run;

namespace {

constexpr double kZ = 1.5;
constexpr double kDelta = 1e-5;

const char* kBase =
    "algorithm: dp_fts_de\nrounds: 6\nruns: 1\nseed: 3\n"
    "objective: {family: gp_grid, grid_points: 100, lengthscale: 0.05}\n"
    "agents: {count: 5, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 12, lengthscale: 0.05}\nlocal_ts: {features: 16}\n"
    "server: {sampling_rate: 0.5, noise_multiplier: 1.5, clip_norm: 5, accountant: rdp,\n"
    "         delta: 1.0e-5}\n";

config::ExperimentSpec spec_of(const std::vector<std::string>& sets) {
  return config::load_config_text(kBase, "stops.yaml", "stops", sets).spec;
}

RunResult run_of(const config::ExperimentSpec& spec, int run = 0) {
  core::ThreadPool pool(1);
  return RunEngine(spec, pool).run(run);
}

SchedulePlan plan_of(const config::ExperimentSpec& spec, int run = 0) {
  return plan_schedule(spec, core::RngFactory(spec.seed, static_cast<std::uint64_t>(run)), true);
}

// The event agent n is charged per release by hand: the subsampled Gaussian at its rate, or
// under buffered the Gaussian alone (q = 1).
privacy::DpEvent hand_event(const std::string& kind, double q) {
  const privacy::DpEvent g = privacy::DpEvent::gaussian(kZ);
  return kind == "buffered" ? g : privacy::DpEvent::poisson_sampled(q, g);
}

// epsilon of k such events under a fresh rdp accountant.
double hand_epsilon(const privacy::DpEvent& e, long long k) {
  if (k == 0) return 0;
  auto acc = privacy::make_accountant("rdp");
  acc->compose(e, k);
  return acc->epsilon(kDelta).epsilon;
}

std::string list(const std::vector<double>& v) { return fmt::format("[{}]", fmt::join(v, ",")); }

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ls(line);
  for (std::string c; std::getline(ls, c, ',');) cells.push_back(c);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

// agents.csv: (row, agent) -> the cells after `agent` (epsilon, then eligible / tier if any).
std::map<std::pair<int, int>, std::vector<double>> agent_rows(const RunResult& r) {
  std::map<std::pair<int, int>, std::vector<double>> out;
  std::istringstream in(r.agents_csv);
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> c = cells_of(line);
    std::vector<double> v;
    for (std::size_t k = 4; k < c.size(); ++k) v.push_back(std::stod(c[k]));
    out[{std::stoi(c[1]), std::stoi(c[3])}] = v;
  }
  return out;
}

// server.csv's `aggregating` cell of each release.
std::vector<std::string> aggregating(const RunResult& r) {
  const auto at = std::find(r.server_columns.begin(), r.server_columns.end(), "aggregating");
  REQUIRE(at != r.server_columns.end());
  std::vector<std::string> out;
  for (const ServerRow& row : r.server)
    out.push_back(row.stats.at(static_cast<std::size_t>(at - r.server_columns.begin())));
  return out;
}

// Every trace row (agent, evaluation) -> its source.
std::map<std::pair<int, int>, std::string> sources(const RunResult& r) {
  std::map<std::pair<int, int>, std::string> out;
  std::istringstream in(r.trace_csv);
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> c = cells_of(line);
    out[{std::stoi(c[1]), std::stoi(c[2])}] = c.back();
  }
  return out;
}

// A random asynchronous schedule and time line.
std::vector<std::string> random_schedule(core::RngStream& g, int agents, std::string& kind) {
  const char* kinds[] = {"buffered", "periodic", "deadline", "latest"};
  kind = kinds[g.uniform_int(4)];
  std::vector<std::string> sets{"schedule.kind=" + kind};
  const double every = 0.5 + 2.5 * g.uniform();
  if (kind == "buffered")
    sets.push_back(fmt::format("schedule.buffer={}", 1 + g.uniform_int(std::size_t(agents))));
  else if (kind == "deadline")
    sets.push_back(fmt::format("schedule.deadline={}", every));
  else
    sets.push_back(fmt::format("schedule.period={}", every));
  const char* models[] = {"constant", "exponential", "lognormal", "uniform"};
  sets.push_back(std::string("timing.duration.model=") + models[g.uniform_int(4)]);
  if (g.uniform() < 0.5) {
    sets.push_back("timing.tiers.fractions=[0.4]");
    sets.push_back(fmt::format("timing.tiers.slowdowns=[{}]", 2 + 3 * g.uniform()));
  }
  return sets;
}

// The largest per-agent epsilon after each release of `plan` (nothing stopped), by hand.
std::vector<double> running_max(const SchedulePlan& plan, const std::string& kind, double q,
                                int agents) {
  std::vector<long long> count(static_cast<std::size_t>(agents), 0);
  std::vector<double> out;
  for (const PlannedRelease& r : plan.releases) {
    for (const auto& m : r.messages) ++count[static_cast<std::size_t>(m.first)];
    const long long most = *std::max_element(count.begin(), count.end());
    out.push_back(hand_epsilon(hand_event(kind, q), most));
  }
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string run_to(const std::string& name, const std::vector<std::string>& sets, int threads = 1) {
  const config::LoadedConfig c = config::load_config_text(kBase, "stops.yaml", "stops", sets);
  RunOptions o;
  o.threads = threads;
  o.out_dir = (std::filesystem::temp_directory_path() / ("fbosim_stops_" + name)).string();
  std::filesystem::remove_all(o.out_dir);
  o.progress = false;
  run_experiment(c.spec, c.resolved, o);
  return o.out_dir;
}

// The cells of column `name` of a CSV text.
std::vector<std::string> column_of(const std::string& csv, const std::string& name) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> head = cells_of(line);
  const auto at =
      static_cast<std::size_t>(std::find(head.begin(), head.end(), name) - head.begin());
  REQUIRE(at < head.size());
  std::vector<std::string> out;
  while (std::getline(in, line)) out.push_back(cells_of(line).at(at));
  return out;
}

// The CSV text without its column `name`.
std::string without_column(const std::string& csv, const std::string& name) {
  std::istringstream in(csv);
  std::string line, out;
  long drop = -1;
  while (std::getline(in, line)) {
    std::vector<std::string> c = cells_of(line);
    if (drop < 0) drop = std::find(c.begin(), c.end(), name) - c.begin();
    if (drop < static_cast<long>(c.size())) c.erase(c.begin() + drop);
    out += fmt::format("{}\n", fmt::join(c, ","));
  }
  return out;
}

}  // namespace

TEST_CASE(
    "schedule stops: server.budget stops the releases before the first whose largest "
    "per-agent epsilon, composed by hand from the time line, would exceed it") {
  core::RngStream g(41);
  int checked = 0;
  for (int trial = 0; trial < 12 && checked < 6; ++trial) {
    std::string kind;
    std::vector<std::string> sets = random_schedule(g, 5, kind);
    sets.push_back(fmt::format("seed={}", trial));
    const config::ExperimentSpec free = spec_of(sets);
    const SchedulePlan plan = plan_of(free);
    const std::vector<double> m = running_max(plan, kind, 0.5, 5);
    // A budget halfway between two distinct maxima near the middle: the server must stop.
    std::size_t j = m.size() / 2;
    while (j < m.size() && (j == 0 || !(m[j] > m[j - 1]))) ++j;
    if (j >= m.size()) continue;
    const double budget = 0.5 * (m[j - 1] + m[j]);
    sets.push_back(fmt::format("server.budget={}", budget));
    const config::ExperimentSpec spec = spec_of(sets);
    const RunResult r = run_of(spec);
    INFO(fmt::format("trial {} {} budget {} stop {} of {}", trial, fmt::join(sets, " "), budget, j,
                     m.size()));
    const std::vector<std::string> made = aggregating(r);
    REQUIRE(made.size() == m.size());
    for (std::size_t k = 0; k < made.size(); ++k) CHECK(made[k] == (k < j ? "1" : "0"));
    CHECK(r.final_epsilon <= budget);
    CHECK(r.final_epsilon == Approx(m[j - 1]).epsilon(1e-12));
    for (const double e : r.epsilon) CHECK(e <= budget);
    // `fbosim privacy`'s replay: the same stop and the same ledgers.
    ScheduleReplay replay = replay_schedule(spec, 0);
    CHECK(replay.server_releases == static_cast<int>(j));
    CHECK(replay.releases == static_cast<int>(m.size()));
    const std::vector<double>& eps = replay.ledgers.epsilons(0, "in the test");
    CHECK(*std::max_element(eps.begin(), eps.end()) == r.final_epsilon);
    // After the stop the agents take local TS steps: every proposal after release j - 1.
    for (const auto& [key, source] : sources(r)) {
      const PlannedEvaluation& e = plan.evaluations[static_cast<std::size_t>(key.first)]
                                                   [static_cast<std::size_t>(key.second)];
      if (key.second > 0 && e.broadcast > static_cast<int>(j)) CHECK(source == "local");
    }
    ++checked;
  }
  CHECK(checked >= 4);
}

TEST_CASE(
    "schedule stops: the epsilon column never exceeds server.budget and the run equals the "
    "replay (random budgets, rates, schedules and durations)") {
  core::RngStream g(7);
  for (int trial = 0; trial < 10; ++trial) {
    std::string kind;
    std::vector<std::string> sets = random_schedule(g, 5, kind);
    const double budget = 0.3 + 5 * g.uniform();
    sets.push_back(fmt::format("server.budget={}", budget));
    sets.push_back(fmt::format("server.sampling_rate={}", 0.1 + 0.9 * g.uniform()));
    sets.push_back(fmt::format("server.noise_multiplier={}", 0.8 + 2 * g.uniform()));
    sets.push_back(fmt::format("seed={}", 100 + trial));
    const config::ExperimentSpec spec = spec_of(sets);
    const RunResult r = run_of(spec);
    INFO(fmt::format("trial {}: {}", trial, fmt::join(sets, " ")));
    for (const double e : r.epsilon) CHECK(e <= budget);
    for (const ServerRow& row : r.server) CHECK(row.epsilon <= budget);
    for (const auto& [key, v] : agent_rows(r)) CHECK(v[0] <= budget);
    ScheduleReplay replay = replay_schedule(spec, 0);
    const std::vector<double>& eps = replay.ledgers.epsilons(0, "in the test");
    CHECK(*std::max_element(eps.begin(), eps.end()) == r.final_epsilon);
    const std::vector<std::string> made = aggregating(r);
    CHECK(std::count(made.begin(), made.end(), "1") == replay.server_releases);
  }
}

TEST_CASE(
    "schedule stops: the degenerate schedules stop where the rounds stop (server.stop_p with "
    "the release index for the round, server.budget), query for query") {
  // Equal durations, always online, releases every second: the papers' rounds (docs/TIME.md).
  const auto trace = [](const std::string& dir) { return slurp(dir + "/trace.csv"); };
  const std::vector<std::string> degenerate{"schedule.kind=periodic", "schedule.period=1"};
  // inv_sqrt: 1 - p_t = 1/sqrt(t) < 0.45 from t = 5: releases 0..3 (as server_stop_test).
  REQUIRE(agents::first_negligible_round(agents::ExplorationSchedule::inv_sqrt, 0.45, 100) == 5);
  const privacy::DpEvent e = hand_event("periodic", 0.5);
  // Between three and four releases' epsilon: releases 0..2.
  const std::string budget =
      fmt::format("server.budget={}", 0.5 * (hand_epsilon(e, 3) + hand_epsilon(e, 4)));
  for (const std::vector<std::string>& rule :
       {std::vector<std::string>{"server.stop_p=0.45"}, std::vector<std::string>{budget}}) {
    INFO(rule[0]);
    std::vector<std::string> sets = rule;
    const std::string rounds = run_to("rounds", sets);
    sets.insert(sets.end(), degenerate.begin(), degenerate.end());
    const std::string periodic = run_to("periodic", sets);
    CHECK(without_column(trace(periodic), "time") == trace(rounds));
    const RunResult r = run_of(spec_of(sets));
    const std::vector<std::string> made = aggregating(r);
    const long want = rule[0] == budget ? 3 : 4;
    CHECK(column_of(slurp(periodic + "/summary.csv"), "aggregating") ==
          std::vector<std::string>{"1", "1", "1", want == 4 ? "1" : "0", "0", "0", ""});
    REQUIRE(made.size() == 6);
    CHECK(std::count(made.begin(), made.end(), "1") == want);
    for (std::size_t k = 0; k < made.size(); ++k)
      CHECK(made[k] == (static_cast<long>(k) < want ? "1" : "0"));
    CHECK(r.final_epsilon == Approx(hand_epsilon(e, want)).epsilon(1e-12));
    // summary.csv's `aggregating`: row t is release t, the rounds' column.
    CHECK(column_of(slurp(periodic + "/summary.csv"), "aggregating") ==
          column_of(slurp(rounds + "/summary.csv"), "aggregating"));
  }
}

TEST_CASE(
    "schedule stops: personal rates charge each agent its own q_n (q = 1 under buffered), "
    "equal to the hand-composed events of the three-agent case") {
  // Three agents of 1 s, one three times slower (schedule_plan_test derives the releases by
  // hand): periodic every 2 s puts each fast agent in one release, the slow one in two;
  // buffered K = 2 each fast agent in two, the slow one in none; latest every 2 s each fast
  // agent in three, the slow one in two.
  const std::string three =
      "algorithm: dp_fts_de\nrounds: 2\nruns: 1\nseed: 5\n"
      "objective: {family: gp_grid, grid_points: 50, lengthscale: 0.05}\n"
      "agents: {count: 3, init_points: 2}\nexploration: {subregions: 2}\n"
      "rff: {features: 10, lengthscale: 0.05}\nlocal_ts: {features: 10}\n"
      "server: {sampling_rate: 0.5, noise_multiplier: 1.5, clip_norm: 5, accountant: rdp, "
      "delta: 1.0e-5}\n"
      "personal: {sampling_rates: [0.2, 0.5, 0.9]}\n"
      "timing: {duration: {model: constant, mean: 1}, tiers: {fractions: [0.3333], slowdowns: "
      "[3]}}\n";
  const std::vector<double> q{0.2, 0.5, 0.9};
  struct Case {
    std::vector<std::string> sets;
    std::string kind;
    int fast, slow;  // releases holding each fast agent's message, the slow one's
  };
  for (const Case& c : {Case{{"schedule.kind=periodic", "schedule.period=2"}, "periodic", 1, 2},
                        Case{{"schedule.kind=buffered", "schedule.buffer=2"}, "buffered", 2, 0},
                        Case{{"schedule.kind=latest", "schedule.period=2"}, "latest", 3, 2}}) {
    INFO(c.kind);
    const config::ExperimentSpec spec =
        config::load_config_text(three, "three.yaml", "three", c.sets).spec;
    REQUIRE(spec.per_agent_ledgers);
    const SchedulePlan plan = plan_of(spec);
    int slow = -1;
    for (int n = 0; n < 3; ++n)
      if (plan.evaluations[static_cast<std::size_t>(n)][0].complete == 3'000'000) slow = n;
    REQUIRE(slow >= 0);
    const RunResult r = run_of(spec);
    const auto rows = agent_rows(r);
    std::vector<double> hand;
    for (int n = 0; n < 3; ++n) {
      const int k = n == slow ? c.slow : c.fast;
      hand.push_back(hand_epsilon(hand_event(c.kind, q[static_cast<std::size_t>(n)]), k));
      INFO("agent " << n << " releases " << k);
      CHECK(rows.at({2, n})[0] == Approx(hand.back()).epsilon(1e-12).margin(1e-300));
    }
    CHECK(r.final_epsilon == Approx(*std::max_element(hand.begin(), hand.end())).epsilon(1e-12));
    // The replay of `fbosim privacy` gives the same.
    PersonalReplay replay = replay_personal_ledgers(spec, 0);
    const std::vector<double>& eps = replay.ledgers.epsilons(0, "in the test");
    for (int n = 0; n < 3; ++n) CHECK(eps[static_cast<std::size_t>(n)] == rows.at({2, n})[0]);
  }
  // Budgets under latest: a fast agent's budget between one and two of its releases stops it
  // before its second (release 1); the slow agent's never stops it.
  const config::ExperimentSpec base =
      config::load_config_text(three, "three.yaml", "three",
                               {"schedule.kind=latest", "schedule.period=2"})
          .spec;
  const SchedulePlan plan = plan_of(base);
  std::vector<double> budgets(3, 100.0);
  int fast = -1;
  for (int n = 0; n < 3 && fast < 0; ++n)
    if (plan.evaluations[static_cast<std::size_t>(n)][0].complete == 1'000'000) fast = n;
  const privacy::DpEvent e = hand_event("latest", q[static_cast<std::size_t>(fast)]);
  budgets[static_cast<std::size_t>(fast)] = 0.5 * (hand_epsilon(e, 1) + hand_epsilon(e, 2));
  const config::ExperimentSpec spec =
      config::load_config_text(
          three, "three.yaml", "three",
          {"schedule.kind=latest", "schedule.period=2", "personal.budgets=" + list(budgets)})
          .spec;
  const RunResult r = run_of(spec);
  const auto rows = agent_rows(r);
  CHECK(rows.at({2, fast})[0] == Approx(hand_epsilon(e, 1)).epsilon(1e-12));
  CHECK(rows.at({2, fast})[1] == 0);  // eligible: stopped
  const ScheduleStops stops =
      schedule_stops(spec, spec.system->privacy_plan(3), plan, core::RngFactory(spec.seed, 0));
  CHECK(stops.stopped_before.at(static_cast<std::size_t>(fast)) == 1);
  CHECK(stops.releases.at(1).withheld == std::vector<int>{fast});
  CHECK(stops.releases.at(2).withheld == std::vector<int>{fast});
  for (int n = 0; n < 3; ++n)
    if (n != fast) CHECK(rows.at({2, n})[1] == 1);
}

TEST_CASE(
    "schedule stops: no agent's epsilon ever exceeds its personal budget, the run equals the "
    "replay, a stopped agent takes local TS steps (random budgets, rates, schedules, "
    "durations)") {
  core::RngStream g(2027);
  int stopped = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const int n_agents = 3 + static_cast<int>(g.uniform_int(4));
    std::string kind;
    std::vector<std::string> sets = random_schedule(g, n_agents, kind);
    std::vector<double> rates, budgets;
    for (int n = 0; n < n_agents; ++n) {
      rates.push_back(0.05 + 0.95 * g.uniform());
      budgets.push_back(0.2 + 6 * g.uniform());
    }
    sets.push_back(fmt::format("agents.count={}", n_agents));
    sets.push_back("personal.sampling_rates=" + list(rates));
    sets.push_back("personal.budgets=" + list(budgets));
    sets.push_back(fmt::format("seed={}", 200 + trial));
    const config::ExperimentSpec spec = spec_of(sets);
    INFO(fmt::format("trial {}: {}", trial, fmt::join(sets, " ")));
    const RunResult r = run_of(spec);
    const auto rows = agent_rows(r);
    for (const auto& [key, v] : rows) {
      INFO("row " << key.first << " agent " << key.second << " epsilon " << v[0]);
      CHECK(v[0] <= budgets[static_cast<std::size_t>(key.second)]);
    }
    PersonalReplay replay = replay_personal_ledgers(spec, 0);
    const std::vector<double>& eps = replay.ledgers.epsilons(0, "in the test");
    const SchedulePlan plan = plan_of(spec);
    const ScheduleStops stops = schedule_stops(spec, spec.system->privacy_plan(n_agents), plan,
                                               core::RngFactory(spec.seed, 0));
    const auto source = sources(r);
    for (int n = 0; n < n_agents; ++n) {
      const auto i = static_cast<std::size_t>(n);
      CHECK(rows.at({6, n})[0] == eps[i]);
      CHECK(rows.at({6, n})[1] == replay.eligible[i]);
      if (replay.eligible[i] == 1) continue;
      ++stopped;
      // Its proposals after the release it stopped before follow no broadcast.
      const auto& mine = plan.evaluations[i];
      for (std::size_t k = 1; k < mine.size(); ++k)
        if (mine[k].broadcast > stops.stopped_before[i]) CHECK(source.at({n, int(k)}) == "local");
    }
  }
  CHECK(stopped >= 5);  // the trials stop agents mid-run
}

TEST_CASE(
    "schedule stops: personal budgets on the degenerate schedule give the rounds run, query for "
    "query, and outputs are byte-identical on 1 and 2 threads") {
  const std::vector<std::string> personal{"agents.count=6",
                                          "personal.sampling_rates=[0.2,0.5,1.0,0.2,0.5,1.0]",
                                          "personal.budgets=[0.6,1.5,4.0,100,2.0,9.0]"};
  const std::string rounds = run_to("personal_rounds", personal);
  std::vector<std::string> sets = personal;
  sets.insert(sets.end(), {"schedule.kind=periodic", "schedule.period=1"});
  const std::string periodic = run_to("personal_periodic", sets);
  CHECK(without_column(slurp(periodic + "/trace.csv"), "time") == slurp(rounds + "/trace.csv"));
  // agents.csv: the same epsilons and eligibility (time is ticks of the network under rounds).
  const auto cells = [&](const std::string& dir) {
    std::vector<std::pair<double, std::string>> out;
    std::istringstream in(slurp(dir + "/agents.csv"));
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      const std::vector<std::string> c = cells_of(line);
      out.emplace_back(std::stod(c.at(4)), c.at(c.size() - 1));
    }
    return out;
  };
  const auto a = cells(rounds), b = cells(periodic);
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    CHECK(a[k].first == Approx(b[k].first).epsilon(1e-12).margin(1e-300));
    CHECK(a[k].second == b[k].second);
  }
  // Any schedule, budgets and a stop rule's column: the same bytes on 1 and 2 threads.
  const std::vector<std::string> busy{"schedule.kind=buffered",
                                      "schedule.buffer=2",
                                      "timing.duration.model=exponential",
                                      "runs=2",
                                      "personal.sampling_rates=[0.3,0.5,0.7,0.9,0.4]",
                                      "personal.budgets=[1,2,3,4,100]",
                                      "output.time_end=1000"};
  const std::string one = run_to("threads_1", busy, 1), two = run_to("threads_2", busy, 2);
  for (const char* f :
       {"/trace.csv", "/server.csv", "/summary.csv", "/agents.csv", "/agents_time.csv"}) {
    INFO(f);
    CHECK(slurp(one + f) == slurp(two + f));
  }
  // agents_time.csv's last grid point, past every release, holds the run's final epsilons.
  const std::string at = slurp(one + "/agents_time.csv");
  std::istringstream in(at);
  std::string line, last0;
  while (std::getline(in, line))
    if (line.rfind("0,", 0) == 0) last0 = line;
  const RunResult r0 = run_of(spec_of(busy), 0);
  CHECK(std::stod(cells_of(last0).at(2)) == r0.final_epsilon);
  const std::string budget_runs =
      run_to("budget_1",
             {"schedule.kind=latest", "schedule.period=1.5", "server.budget=2",
              "timing.duration.model=lognormal", "runs=2"},
             1);
  const std::string budget_runs2 =
      run_to("budget_2",
             {"schedule.kind=latest", "schedule.period=1.5", "server.budget=2",
              "timing.duration.model=lognormal", "runs=2"},
             2);
  for (const char* f : {"/trace.csv", "/server.csv", "/summary.csv", "/agents.csv"}) {
    INFO(f);
    CHECK(slurp(budget_runs + f) == slurp(budget_runs2 + f));
  }
}

TEST_CASE(
    "schedule stops: personal keys with a trust model other than central stay refused under "
    "the asynchronous schedules, with the reason") {
  const std::string rates = "personal.sampling_rates=[0.1,0.2,0.3,0.4,0.5]";
  CHECK_NOTHROW(spec_of({rates, "schedule.kind=buffered"}));
  CHECK_NOTHROW(
      spec_of({"personal.budgets=[1,2,3,4,5]", "schedule.kind=deadline", "schedule.deadline=2"}));
  CHECK_NOTHROW(spec_of({"server.budget=3", "schedule.kind=periodic"}));
  CHECK_NOTHROW(spec_of({"server.stop_p=0.3", "schedule.kind=latest"}));
  CHECK_THROWS_WITH(spec_of({rates, "schedule.kind=buffered", "server.trust=distributed",
                             "server.sampled_by=agents"}),
                    Catch::Contains("personal.sampling_rates") &&
                        Catch::Contains("trusted server only") && Catch::Contains("buffered"));
  // server.stop_p with local: every message is charged when sent, the stop is not wired there;
  // with distributed the stop ends the secure sums and their charges.
  CHECK_THROWS_WITH(
      spec_of({"server.stop_p=0.3", "schedule.kind=periodic", "server.trust=local"}),
      Catch::Contains("server.stop_p") && Catch::Contains("local") && Catch::Contains("sent"));
  CHECK_NOTHROW(
      spec_of({"server.stop_p=0.3", "schedule.kind=periodic", "server.trust=distributed"}));
  // server.budget with personal budgets stays refused under every schedule: give each its own.
  CHECK_THROWS_WITH(
      spec_of({"personal.budgets=[1,2,3,4,5]", "server.budget=3", "schedule.kind=periodic"}),
      Catch::Contains("server.budget") && Catch::Contains("personal.budgets"));
}
