// The asynchronous schedules' engine (issue 41; docs/TIME.md): the degenerate case equals the
// papers' rounds, outputs are the same on any thread count, every schedule keeps the outputs'
// contract, and the per-agent epsilon equals events composed by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "algorithms/privacy/accountant_registry.hpp"
#include "core/thread_pool.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/run/experiment_runner.hpp"
#include "sim/run/run_engine.hpp"
#include "sim/run/schedule_ledgers.hpp"

using namespace fbosim;
using namespace fbosim::run;

namespace {

const char* kFour =
    "rounds: 4\nruns: 2\nseed: 11\n"
    "objective: {family: gp_grid, grid_points: 100, lengthscale: 0.05}\n"
    "agents: {count: 4, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 16, lengthscale: 0.05}\nlocal_ts: {features: 16}\n"
    "server: {sampling_rate: 0.5, noise_multiplier: 1, clip_norm: 5}\n";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string temp_dir(const std::string& name) {
  const auto p = std::filesystem::temp_directory_path() / ("fbosim_async_" + name);
  std::filesystem::remove_all(p);
  return p.string();
}

std::string run_to(const std::string& name, const std::vector<std::string>& sets, int threads = 1) {
  const config::LoadedConfig c = config::load_config_text(kFour, "four.yaml", "four", sets);
  RunOptions o;
  o.threads = threads;
  o.out_dir = temp_dir(name);
  o.progress = false;
  run_experiment(c.spec, c.resolved, o);
  return o.out_dir;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out(1);
  for (const char ch : line) {
    if (ch == ',') {
      out.emplace_back();
    } else {
      out.back() += ch;
    }
  }
  return out;
}

// The CSV text without the named columns (absent ones ignored).
std::string without_columns(const std::string& csv, const std::vector<std::string>& names) {
  std::istringstream in(csv);
  std::string line, out;
  std::vector<bool> keep;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = split(line);
    if (keep.empty())
      for (const std::string& c : cells)
        keep.push_back(std::find(names.begin(), names.end(), c) == names.end());
    std::string row;
    for (std::size_t i = 0; i < cells.size(); ++i)
      if (keep.at(i)) row += (row.empty() ? "" : ",") + cells[i];
    out += row + "\n";
  }
  return out;
}

// Column `name` of a CSV as numbers.
std::vector<double> column(const std::string& csv, const std::string& name) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> head = split(line);
  const auto at =
      static_cast<std::size_t>(std::find(head.begin(), head.end(), name) - head.begin());
  REQUIRE(at < head.size());
  std::vector<double> out;
  while (std::getline(in, line)) out.push_back(std::stod(split(line).at(at)));
  return out;
}

// The per-agent spread columns of per-agent ledgers (absent under rounds).
const std::vector<std::string> kSpread = {"epsilon_median", "epsilon_p90"};

}  // namespace

TEST_CASE("degenerate schedules (equal durations, always online) give the rounds run's outputs") {
  // Without DP: buffered with K = N is the synchronous round.
  const std::string rounds = run_to("rounds_plain", {"algorithm=fts_de"});
  const std::string buffered =
      run_to("buffered_plain", {"algorithm=fts_de", "schedule.kind=buffered"});
  CHECK(without_columns(slurp(buffered + "/trace.csv"), {"time"}) == slurp(rounds + "/trace.csv"));
  CHECK(without_columns(slurp(buffered + "/summary.csv"), kSpread) ==
        slurp(rounds + "/summary.csv"));
  // With DP: releases at every second are the rounds, and charge what the rounds charge.
  const std::string dp = run_to("rounds_dp", {});
  // latest too: with equal durations every agent's newest message is new at every release.
  for (const char* kind : {"periodic", "deadline", "latest"}) {
    INFO(kind);
    const std::string key =
        std::string(kind) == "deadline" ? "schedule.deadline=1" : "schedule.period=1";
    const std::string d =
        run_to(std::string(kind) + "_dp", {std::string("schedule.kind=") + kind, key});
    CHECK(without_columns(slurp(d + "/trace.csv"), {"time"}) == slurp(dp + "/trace.csv"));
    // The epsilon: the same releases composed as counts per agent (k x one step's RDP) rather
    // than one at a time (a sum of k steps): equal up to rounding.
    std::vector<std::string> drop = kSpread;
    drop.push_back("epsilon");
    CHECK(without_columns(slurp(d + "/summary.csv"), drop) ==
          without_columns(slurp(dp + "/summary.csv"), {"epsilon"}));
    const std::vector<double> mine = column(slurp(d + "/summary.csv"), "epsilon");
    const std::vector<double> theirs = column(slurp(dp + "/summary.csv"), "epsilon");
    REQUIRE(mine.size() == theirs.size());
    for (std::size_t i = 0; i < mine.size(); ++i)
      CHECK(mine[i] == Approx(theirs[i]).epsilon(1e-12));
    CHECK(theirs.back() > 0);
  }
  // buffered charges every release at q = 1: the same queries, a larger epsilon.
  const std::string b = run_to("buffered_dp", {"schedule.kind=buffered"});
  CHECK(without_columns(slurp(b + "/trace.csv"), {"time"}) == slurp(dp + "/trace.csv"));
  CHECK(column(slurp(b + "/summary.csv"), "epsilon").back() >
        column(slurp(dp + "/summary.csv"), "epsilon").back());
}

TEST_CASE("age weights change the broadcasts under latest, never the privacy charges") {
  // Four agents, one ten times slower, a release every 1.5 s: the slow agent's message is in
  // several releases (ages above 0), so its weight below 1 changes the broadcasts (without DP
  // the weights are renormalised over the messages present; with DP, not); each release is
  // charged the same event whatever the weights, so every epsilon is unchanged.
  const std::vector<std::string> slow = {"schedule.kind=latest", "schedule.period=1.5",
                                         "timing.tiers.fractions=[0.25]",
                                         "timing.tiers.slowdowns=[10]"};
  for (const char* algorithm : {"fts_de", "dp_fts_de"}) {
    INFO(algorithm);
    std::vector<std::string> sets = slow;
    sets.push_back(std::string("algorithm=") + algorithm);
    const std::string one = run_to(std::string("age_one_") + algorithm, sets);
    sets.push_back("schedule.age_weight=fedasync");
    sets.push_back("schedule.age_exponent=3");
    const std::string aged = run_to(std::string("age_fedasync_") + algorithm, sets);
    CHECK(slurp(one + "/trace.csv") != slurp(aged + "/trace.csv"));
    CHECK(column(slurp(one + "/summary.csv"), "epsilon") ==
          column(slurp(aged + "/summary.csv"), "epsilon"));
    CHECK(slurp(one + "/agents.csv") == slurp(aged + "/agents.csv"));
  }
}

TEST_CASE("several workers: ts keeps the outputs' contract, the same on 1 and 2 threads") {
  for (const char* batches : {"false", "true"}) {
    INFO("batches " << batches);
    const std::vector<std::string> sets = {"algorithm=ts",
                                           "schedule.kind=periodic",
                                           "schedule.workers=3",
                                           std::string("schedule.batches=") + batches,
                                           "timing.duration.model=exponential",
                                           "timing.tiers.fractions=[0.25]",
                                           "timing.tiers.slowdowns=[10]"};
    const std::string a = run_to(std::string("workers_t1_") + batches, sets, 1);
    const std::string b = run_to(std::string("workers_t2_") + batches, sets, 2);
    for (const char* f : {"/trace.csv", "/summary.csv", "/agents.csv"}) {
      INFO(f);
      CHECK(slurp(a + f) == slurp(b + f));
    }
    const std::string trace = slurp(a + "/trace.csv");
    // 2 runs x 4 agents x (2 initial points + 4 evaluations), in completion order.
    CHECK(std::count(trace.begin(), trace.end(), '\n') == 1 + 2 * 4 * 6);
    const std::vector<double> times = column(trace, "time");
    const std::vector<double> runs = column(trace, "run");
    for (std::size_t i = 1; i < times.size(); ++i)
      if (runs[i] == runs[i - 1]) CHECK(times[i] >= times[i - 1]);
    const std::string summary = slurp(a + "/summary.csv");
    CHECK(std::count(summary.begin(), summary.end(), '\n') == 1 + 5);
    const std::vector<double> regret = column(summary, "mean_regret");
    for (std::size_t k = 1; k < regret.size(); ++k) CHECK(regret[k] <= regret[k - 1]);
  }
  // Workers finish the same evaluations sooner: the last completion comes earlier.
  const std::vector<std::string> base = {"algorithm=ts", "schedule.kind=periodic",
                                         "timing.duration.model=exponential"};
  std::vector<std::string> three = base;
  three.push_back("schedule.workers=3");
  const std::vector<double> one_times =
      column(slurp(run_to("workers_one", base) + "/trace.csv"), "time");
  const std::vector<double> three_times =
      column(slurp(run_to("workers_three", three) + "/trace.csv"), "time");
  CHECK(*std::max_element(three_times.begin(), three_times.end()) <
        *std::max_element(one_times.begin(), one_times.end()));
}

TEST_CASE("asynchronous runs are byte-identical on 1 and 2 threads") {
  const std::vector<std::string> slow = {
      "timing.duration.model=lognormal", "timing.duration.mean=1", "timing.duration.sigma=0.5",
      "timing.tiers.fractions=[0.25]", "timing.tiers.slowdowns=[10]"};
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"buffered", "schedule.buffer=2"},
      {"periodic", "schedule.period=1.5"},
      {"deadline", "schedule.deadline=2"},
      {"latest", "schedule.period=1.5"},
      {"latest", "schedule.age_weight=fedbuff"}};
  for (const auto& [kind, key] : kinds) {
    INFO(kind << " " << key);
    std::vector<std::string> sets = slow;
    sets.push_back("schedule.kind=" + kind);
    sets.push_back(key);
    const std::string a = run_to(kind + std::to_string(key.size()) + "_t1", sets, 1);
    const std::string b = run_to(kind + std::to_string(key.size()) + "_t2", sets, 2);
    for (const char* f : {"/trace.csv", "/server.csv", "/summary.csv", "/config.resolved.yaml"}) {
      INFO(f);
      CHECK(slurp(a + f) == slurp(b + f));
    }
  }
}

TEST_CASE("every schedule keeps the outputs' contract for every algorithm that declares it") {
  for (const char* algorithm : {"ts", "fts_de", "dp_fts_de"}) {
    for (const char* kind : {"buffered", "periodic", "deadline", "latest"}) {
      INFO(algorithm << " " << kind);
      const std::string d =
          run_to(std::string("contract_") + algorithm + kind,
                 {std::string("algorithm=") + algorithm, std::string("schedule.kind=") + kind,
                  "timing.duration.model=exponential", "timing.tiers.fractions=[0.25]",
                  "timing.tiers.slowdowns=[10]"});
      const std::string trace = slurp(d + "/trace.csv");
      CHECK(trace.rfind("run,agent,round,time,x0,y,f,best_f,regret,source\n", 0) == 0);
      // 2 runs x 4 agents x (2 initial points + 4 evaluations).
      CHECK(std::count(trace.begin(), trace.end(), '\n') == 1 + 2 * 4 * 6);
      const std::vector<double> times = column(trace, "time");
      const std::vector<double> runs = column(trace, "run");
      for (std::size_t i = 1; i < times.size(); ++i)
        if (runs[i] == runs[i - 1]) CHECK(times[i] >= times[i - 1]);
      const std::string summary = slurp(d + "/summary.csv");
      CHECK(std::count(summary.begin(), summary.end(), '\n') == 1 + 5);
      const std::vector<double> eps = column(summary, "epsilon");
      CHECK(std::is_sorted(eps.begin(), eps.end()));
      CHECK((std::string(algorithm) == "dp_fts_de") == (eps.back() > 0));
      const std::string server = slurp(d + "/server.csv");
      if (std::string(algorithm) == "ts")
        CHECK(std::count(server.begin(), server.end(), '\n') == 1);
      // One ledger per agent: a row per agent per summary row, the largest one in `epsilon`.
      const std::string agents = slurp(d + "/agents.csv");
      CHECK(agents.rfind("run,round,time,agent,epsilon\n", 0) == 0);
      CHECK(std::count(agents.begin(), agents.end(), '\n') == 1 + 2 * 5 * 4);
      const std::vector<double> each = column(agents, "epsilon");
      CHECK(*std::max_element(each.begin(), each.end()) <= eps.back());
      const std::string provenance = slurp(d + "/provenance.yaml");
      CHECK(provenance.find(std::string("schedule: ") + kind) != std::string::npos);
      CHECK(provenance.find("epsilon_notion: ") != std::string::npos);
    }
  }
}

TEST_CASE("per-agent epsilon under the schedules equals the hand-composed events") {
  // Three agents of 1 s, one three times slower (schedule_plan_test derives the releases by
  // hand): buffered K = 2 puts each fast agent in two releases, charged at q = 1, and the slow
  // one in none; periodic every 2 s puts each fast agent in one release (its first message
  // replaced at 2 s) and the slow one in two, each charged the subsampled Gaussian.
  const std::string three =
      "algorithm: dp_fts_de\nrounds: 2\nruns: 1\nseed: 5\n"
      "objective: {family: gp_grid, grid_points: 50, lengthscale: 0.05}\n"
      "agents: {count: 3, init_points: 2}\nexploration: {subregions: 2}\n"
      "rff: {features: 10, lengthscale: 0.05}\nlocal_ts: {features: 10}\n"
      "server: {sampling_rate: 0.5, noise_multiplier: 1.5, clip_norm: 5}\n"
      "timing: {duration: {model: constant, mean: 1}, tiers: {fractions: [0.3333], slowdowns: "
      "[3]}}\n";
  const auto epsilon_of = [&](const std::vector<std::string>& sets) {
    const config::LoadedConfig c = config::load_config_text(three, "three.yaml", "three", sets);
    core::ThreadPool pool(1);
    const RunEngine engine(c.spec, pool);
    return std::make_pair(engine.run(0).final_epsilon, c.spec.delta());
  };
  const auto composed = [](const privacy::DpEvent& e, int times, double delta) {
    auto a = privacy::make_accountant("moments");
    for (int k = 0; k < times; ++k) a->compose(e);
    return a->epsilon(delta).epsilon;
  };
  const auto [buffered, delta] = epsilon_of({"schedule.kind=buffered", "schedule.buffer=2"});
  CHECK(buffered == Approx(composed(privacy::DpEvent::gaussian(1.5), 2, delta)).epsilon(1e-12));
  const auto sampled = privacy::DpEvent::poisson_sampled(0.5, privacy::DpEvent::gaussian(1.5));
  const auto [periodic, delta2] = epsilon_of({"schedule.kind=periodic", "schedule.period=2"});
  CHECK(periodic == Approx(composed(sampled, 2, delta2)).epsilon(1e-12));
  // Never the single agent's count composed as if it were everyone's three: a forgotten
  // eligibility would charge 3.
  CHECK(periodic < composed(sampled, 3, delta2));
  // latest every 2 s (schedule_plan_test): each fast agent's newest message is in all three
  // releases (at 2, 4 and 6 s), the slow agent's in two; each release charged the subsampled
  // Gaussian. Charging a message once, as periodic does, would give periodic's epsilon.
  const auto [latest, delta3] = epsilon_of({"schedule.kind=latest", "schedule.period=2"});
  CHECK(latest == Approx(composed(sampled, 3, delta3)).epsilon(1e-12));
  CHECK(latest > periodic);
}

TEST_CASE("the time line's replay without an objective gives the run's per-agent epsilons") {
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"buffered", "schedule.buffer=2"},
      {"periodic", "schedule.period=1.5"},
      {"deadline", "schedule.deadline=2"},
      {"latest", "schedule.period=1.5"}};
  for (const auto& [kind, key] : kinds) {
    INFO(kind);
    const config::LoadedConfig c = config::load_config_text(
        kFour, "four.yaml", "four",
        {"schedule.kind=" + kind, key, "timing.duration.model=exponential",
         "timing.tiers.fractions=[0.25]", "timing.tiers.slowdowns=[10]", "server.accountants=rdp"});
    core::ThreadPool pool(2);
    const RunEngine engine(c.spec, pool);
    for (int r = 0; r < 2; ++r) {
      const RunResult res = engine.run(r);
      AgentPrivacy replay = replay_schedule_ledgers(c.spec, r);
      const std::vector<double> moments = replay.epsilons(0, "in the replay");
      const std::vector<double> rdp = replay.epsilons(1, "in the replay");
      CHECK(res.final_epsilon == *std::max_element(moments.begin(), moments.end()));
      CHECK(res.extra_epsilon.at(0).back() == *std::max_element(rdp.begin(), rdp.end()));
      CHECK(res.final_epsilon > 0);
    }
  }
}
