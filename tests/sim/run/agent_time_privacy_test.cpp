// agents_time.csv (issue 41 sec. 3; docs/TIME.md, "Outputs"): the agents' epsilons on the time
// grid against events composed by hand (three agents, one slow), its last grid point against
// agents.csv's final epsilons, and the same bytes on 1 and 2 threads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "algorithms/privacy/accountant_registry.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/run/experiment_runner.hpp"

using namespace fbosim;
using namespace fbosim::run;

namespace {

std::vector<std::string> split_cells(const std::string& line) {
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

std::vector<std::vector<std::string>> csv_rows(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> out;
  for (std::string line; std::getline(in, line);) out.push_back(split_cells(line));
  return out;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string run_config(const std::string& text, const std::string& name,
                       const std::vector<std::string>& sets, int threads = 1) {
  const config::LoadedConfig c = config::load_config_text(text, "t.yaml", "t", sets);
  RunOptions o;
  o.threads = threads;
  o.out_dir = (std::filesystem::temp_directory_path() / ("fbosim_agents_time_" + name)).string();
  std::filesystem::remove_all(o.out_dir);
  o.progress = false;
  run_experiment(c.spec, c.resolved, o);
  return o.out_dir;
}

const char* kThree =
    "algorithm: dp_fts_de\nrounds: 2\nruns: 1\nseed: 5\n"
    "objective: {family: gp_grid, grid_points: 50, lengthscale: 0.05}\n"
    "agents: {count: 3, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 10, lengthscale: 0.05}\nlocal_ts: {features: 10}\n"
    "server: {sampling_rate: 0.5, noise_multiplier: 1.5, clip_norm: 5}\n"
    "timing: {duration: {model: constant, mean: 1}, tiers: {fractions: [0.3333], slowdowns: "
    "[3]}}\n";

const std::string kFourRounds =
    "algorithm: dp_fts_de\nrounds: 4\nruns: 3\nseed: 5\n"
    "objective: {family: gp_grid, grid_points: 100, lengthscale: 0.05}\n"
    "agents: {count: 4, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 16, lengthscale: 0.05}\nlocal_ts: {features: 16}\n"
    "server: {sampling_rate: 0.5, noise_multiplier: 1, clip_norm: 5}\n";
const std::string kFour =
    kFourRounds +
    "timing: {duration: {model: lognormal, sigma: 0.5}, tiers: {fractions: [0.25], slowdowns: "
    "[10]}}\n";

// The k-th smallest by nearest rank, k = ceil(n num / den): summary.csv's median and p90.
double nearest_rank(std::vector<double> v, std::size_t num, std::size_t den) {
  std::sort(v.begin(), v.end());
  return v[std::max<std::size_t>((v.size() * num + den - 1) / den, 1) - 1];
}

}  // namespace

TEST_CASE("agents_time.csv: three agents, one slow, composed by hand on the grid") {
  // Periodic every 2 s (schedule_plan_test derives the releases by hand): the fast agents'
  // messages are in the release of 2 s, the slow agent's (3 s, 6 s) in those of 4 s and 6 s,
  // each charged the subsampled Gaussian. The grid: 0, 1, ..., 9 s (the last completion).
  const std::string d = run_config(
      kThree, "three", {"schedule.kind=periodic", "schedule.period=2", "output.time_grid=10"});
  const double delta = config::load_config_text(kThree, "t.yaml", "t",
                                                {"schedule.kind=periodic", "schedule.period=2"})
                           .spec.delta();
  const auto composed = [&](int times) {
    auto a = privacy::make_accountant("moments");
    for (int k = 0; k < times; ++k)
      a->compose(privacy::DpEvent::poisson_sampled(0.5, privacy::DpEvent::gaussian(1.5)));
    return a->epsilon(delta).epsilon;
  };
  const double one = composed(1), two = composed(2);
  // {max, median, p90} of the three agents at each grid instant.
  const std::vector<std::array<double, 3>> expected = {
      {0, 0, 0},       {0, 0, 0},       {one, one, one}, {one, one, one}, {one, one, one},
      {one, one, one}, {two, one, two}, {two, one, two}, {two, one, two}, {two, one, two}};
  const auto rows = csv_rows(d + "/agents_time.csv");
  REQUIRE(rows.size() == 11);
  CHECK(rows[0] ==
        std::vector<std::string>{"run", "time", "epsilon_max", "epsilon_median", "epsilon_p90"});
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("grid point " << i);
    const auto& row = rows[i + 1];
    CHECK(row[0] == "0");
    CHECK(std::stod(row[1]) == static_cast<double>(i));
    for (std::size_t k = 0; k < 3; ++k)
      CHECK(std::stod(row[2 + k]) == Approx(expected[i][k]).epsilon(1e-12));
  }
}

TEST_CASE("agents_time.csv: its last grid point is agents.csv's final epsilons, on any threads") {
  // A grid that ends after every release (deadline: the last messages are released after
  // their completion), so that the last point holds the whole run.
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"buffered", "schedule.buffer=2"},
      {"periodic", "schedule.period=1.5"},
      {"deadline", "schedule.deadline=2"}};
  for (const auto& [kind, key] : kinds) {
    INFO(kind);
    const std::vector<std::string> sets = {"schedule.kind=" + kind, key, "output.time_grid=7",
                                           "output.time_end=1000"};
    const std::string d = run_config(kFour, kind, sets, 1);
    // agents.csv: run,round,time,agent,epsilon; each run's final epsilons are its last round's.
    std::map<int, std::map<int, std::vector<double>>> by_round;
    const auto agents = csv_rows(d + "/agents.csv");
    REQUIRE(agents[0][4] == "epsilon");
    for (std::size_t i = 1; i < agents.size(); ++i)
      by_round[std::stoi(agents[i][0])][std::stoi(agents[i][1])].push_back(std::stod(agents[i][4]));
    const auto rows = csv_rows(d + "/agents_time.csv");
    REQUIRE(rows.size() == 1 + 3 * 7);
    for (int r = 0; r < 3; ++r) {
      INFO("run " << r);
      const std::vector<double>& last = by_round.at(r).rbegin()->second;
      REQUIRE(last.size() == 4);
      const auto& row = rows[static_cast<std::size_t>(7 * r + 7)];
      CHECK(row[0] == std::to_string(r));
      CHECK(row[1] == "1000");
      CHECK(std::stod(row[2]) == *std::max_element(last.begin(), last.end()));
      CHECK(std::stod(row[3]) == nearest_rank(last, 1, 2));
      CHECK(std::stod(row[4]) == nearest_rank(last, 9, 10));
      CHECK(std::stod(row[2]) > 0);
      // Before the first release nobody has spent anything; epsilons never decrease.
      CHECK(std::stod(rows[static_cast<std::size_t>(7 * r + 1)][2]) == 0);
      for (int k = 1; k < 7; ++k)
        CHECK(std::stod(rows[static_cast<std::size_t>(7 * r + 1 + k)][2]) >=
              std::stod(rows[static_cast<std::size_t>(7 * r + k)][2]));
    }
    const std::string two = run_config(kFour, kind + "_2", sets, 2);
    CHECK(file_text(two + "/agents_time.csv") == file_text(d + "/agents_time.csv"));
  }
  // Under rounds there is no time grid: no agents_time.csv.
  const std::string r = run_config(kFourRounds, "rounds", {});
  CHECK_FALSE(std::filesystem::exists(r + "/agents_time.csv"));
}
