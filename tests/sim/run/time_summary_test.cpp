// summary_time.csv and time_to_target.csv (issue 41 sec. 1; docs/TIME.md, "Outputs"): the grid,
// the step curves, the time to a target regret and the mean and standard errors on the grid,
// against values worked out by hand; and the files of a run under a schedule.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/config/config_loader.hpp"
#include "sim/run/experiment_runner.hpp"
#include "sim/run/time_summary.hpp"

using namespace fbosim;
using namespace fbosim::run;

namespace {

std::vector<std::string> cells(const std::string& line) {
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

std::vector<std::vector<std::string>> rows(const std::string& text) {
  std::vector<std::vector<std::string>> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(cells(line));
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

AgentCurve curve(std::vector<timeline::Tick> t, std::vector<double> best,
                 std::vector<double> regret) {
  return {std::move(t), std::move(best), std::move(regret)};
}

const char* kFour =
    "rounds: 4\nruns: 3\nseed: 5\n"
    "objective: {family: gp_grid, grid_points: 100, lengthscale: 0.05}\n"
    "agents: {count: 4, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 16, lengthscale: 0.05}\nlocal_ts: {features: 16}\n"
    "server: {sampling_rate: 0.5, noise_multiplier: 1, clip_norm: 5}\n";

std::string run_to(const std::string& name, const std::vector<std::string>& sets, int threads = 1) {
  const config::LoadedConfig c = config::load_config_text(kFour, "four.yaml", "four", sets);
  RunOptions o;
  o.threads = threads;
  o.out_dir = (std::filesystem::temp_directory_path() / ("fbosim_time_" + name)).string();
  std::filesystem::remove_all(o.out_dir);
  o.progress = false;
  run_experiment(c.spec, c.resolved, o);
  return o.out_dir;
}

}  // namespace

TEST_CASE("time_grid: equal steps from 0 to the end, rounded down to a tick") {
  CHECK(time_grid(10, 6) == std::vector<timeline::Tick>{0, 2, 4, 6, 8, 10});
  CHECK(time_grid(7, 3) == std::vector<timeline::Tick>{0, 3, 7});  // 3.5 -> 3
  CHECK(time_grid(0, 2) == std::vector<timeline::Tick>{0, 0});
  // No overflow near the end of time: (2^62 - 1) x 99 does not fit in 64 bits.
  const timeline::Tick end = timeline::kEndOfTime - 1;
  CHECK(time_grid(end, 100).back() == end);
  CHECK(time_grid(end, 100)[1] == end / 99);
}

TEST_CASE("value_at: the value after the last completion at or before t") {
  const std::vector<timeline::Tick> t = {2, 5};
  const std::vector<double> v = {1.5, 0.5};
  CHECK(std::isnan(value_at(t, v, 1)));
  CHECK(value_at(t, v, 2) == 1.5);
  CHECK(value_at(t, v, 4) == 1.5);
  CHECK(value_at(t, v, 5) == 0.5);
  CHECK(value_at(t, v, 100) == 0.5);
}

TEST_CASE("time_to_target: the first instant the agents' mean regret reaches the target") {
  // a: regret 2 at 1, 0.5 at 3; b: 1 at 2, 0 at 3. Means: none at 1 (b has none), 1.5 at 2,
  // 0.25 at 3.
  const std::vector<AgentCurve> c = {curve({1, 3}, {0, 0}, {2, 0.5}),
                                     curve({2, 3}, {0, 0}, {1, 0})};
  CHECK(time_to_target(c, 2.0) == timeline::Tick{2});  // not 1: b has not completed
  CHECK(time_to_target(c, 1.5) == timeline::Tick{2});
  CHECK(time_to_target(c, 0.3) == timeline::Tick{3});
  CHECK(time_to_target(c, 0.25) == timeline::Tick{3});
  CHECK_FALSE(time_to_target(c, 0.2).has_value());
  // Within one instant the mean is tested after every completion of it: at 3, a alone would
  // give (0 + 1) / 2 = 0.5, a and b give (0 + 3) / 2 = 1.5.
  const std::vector<AgentCurve> d = {curve({1, 3}, {0, 0}, {2, 0}), curve({1, 3}, {0, 0}, {1, 3})};
  CHECK_FALSE(time_to_target(d, 1.0).has_value());
  // A regret that is not known never reaches a target.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(time_to_target({curve({1}, {0}, {nan})}, 10.0).has_value());
}

TEST_CASE("summary_time.csv and time_to_target.csv of two runs, worked by hand") {
  config::ExperimentSpec spec;
  spec.time_output.grid = 3;
  spec.time_output.end = 4e-6;  // 4 ticks: the grid 0, 2, 4
  spec.time_output.target_regret = 2.0;
  TimeSummary s(spec);
  // Run 0: agent 0 completes at 1 (best 1, regret 2) and 3 (2, 1); agent 1 at 2 (0, 3).
  s.add_curves({curve({1, 3}, {1, 2}, {2, 1}), curve({2}, {0}, {3})});
  // Run 1: both at 1: agent 0 (2, 1), agent 1 (0, 3).
  s.add_curves({curve({1}, {2}, {1}), curve({1}, {0}, {3})});
  const auto r = rows(s.csv());
  REQUIRE(r.size() == 4);
  CHECK(r[0] == std::vector<std::string>{"time", "mean_regret", "se_regret", "mean_best_f",
                                         "se_best_f", "n"});
  // At 0 nobody has completed: no values.
  CHECK(r[1] == std::vector<std::string>{"0", "", "", "", "", "0"});
  // At 2 us: regrets 2, 3 | 1, 3 (run means 2.5, 2: s.e. 0.25); best 1, 0 | 2, 0 (0.5, 1).
  CHECK(std::stod(r[2][0]) == 2e-6);
  CHECK(std::stod(r[2][1]) == Approx(2.25));
  CHECK(std::stod(r[2][2]) == Approx(0.25));
  CHECK(std::stod(r[2][3]) == Approx(0.75));
  CHECK(std::stod(r[2][4]) == Approx(0.25));
  CHECK(r[2][5] == "4");
  // At 4 us: regrets 1, 3 | 1, 3 (means 2, 2: s.e. 0); best 2, 0 | 2, 0.
  CHECK(std::stod(r[3][1]) == Approx(2.0));
  CHECK(std::stod(r[3][2]) == Approx(0.0).margin(1e-12));
  CHECK(std::stod(r[3][3]) == Approx(1.0));
  // Mean regret <= 2: run 0 at 3 us ((1 + 3) / 2; at 2 us 2.5), run 1 at 1 us ((1 + 3) / 2).
  const auto t = rows(s.target_csv());
  REQUIRE(t.size() == 2);
  CHECK(t[0] == std::vector<std::string>{"target_regret", "runs", "reached", "never", "mean_time",
                                         "se_time"});
  CHECK(t[1][0] == "2");
  CHECK(t[1][1] == "2");
  CHECK(t[1][2] == "2");
  CHECK(t[1][3] == "0");
  CHECK(std::stod(t[1][4]) == Approx(2e-6));
  CHECK(std::stod(t[1][5]) == Approx(1e-6));  // sd of {1, 3} us is sqrt(2) us, over sqrt(2)
}

TEST_CASE("summary_time.csv: the default end is the last completion, and runs that never reach") {
  config::ExperimentSpec spec;
  spec.time_output.grid = 3;
  spec.time_output.target_regret = 0.5;
  TimeSummary s(spec);
  s.add_curves({curve({1, 3}, {1, 2}, {2, 1})});
  s.add_curves({curve({1, 2}, {1, 3}, {2, 0.5})});
  const auto r = rows(s.csv());
  REQUIRE(r.size() == 4);
  CHECK(std::stod(r[1][0]) == 0);
  CHECK(std::stod(r[2][0]) == 1e-6);  // 3 / 2 -> 1 tick
  CHECK(std::stod(r[3][0]) == 3e-6);
  const auto t = rows(s.target_csv());
  CHECK(t[1] == std::vector<std::string>{"0.5", "2", "1", "1", "2e-06", ""});  // one: no s.e.
  config::ExperimentSpec none;
  CHECK(TimeSummary(none).target_csv().empty());
}

TEST_CASE("a buffered run writes summary_time.csv and time_to_target.csv, rounds neither") {
  const std::vector<std::string> sets = {
      "algorithm=dp_fts_de",         "schedule.kind=buffered",
      "schedule.buffer=2",           "timing.duration.model=lognormal",
      "timing.duration.sigma=0.5",   "timing.tiers.fractions=[0.25]",
      "timing.tiers.slowdowns=[10]", "output.time_grid=11",
      "output.target_regret=0.5"};
  const std::string d = run_to("buffered", sets, 1);
  const auto grid = rows(slurp(d + "/summary_time.csv"));
  REQUIRE(grid.size() == 12);
  // At the grid's end (the last completion) every agent has its final value: summary.csv's
  // last row.
  const auto summary = rows(slurp(d + "/summary.csv"));
  CHECK(grid.back()[1] == summary.back()[1]);
  CHECK(grid.back()[3] == summary.back()[3]);
  CHECK(grid.back()[5] == "12");  // 3 runs x 4 agents
  // The time to the target from trace.csv's rows, worked independently: per run, the first
  // instant after whose completions every agent has a regret and their mean is <= 0.5.
  const auto trace = rows(slurp(d + "/trace.csv"));
  REQUIRE(trace[0][3] == "time");
  const std::size_t regret_col = trace[0].size() - 2;
  std::map<int, double> first;
  std::map<int, std::map<int, double>> current;
  for (std::size_t i = 1; i < trace.size(); ++i) {
    const int run = std::stoi(trace[i][0]);
    current[run][std::stoi(trace[i][1])] = std::stod(trace[i][regret_col]);
    const bool instant_done =
        i + 1 == trace.size() || trace[i + 1][0] != trace[i][0] || trace[i + 1][3] != trace[i][3];
    if (!instant_done || first.count(run) || current[run].size() < 4) continue;
    double sum = 0;
    for (const auto& [agent, r] : current[run]) sum += r;
    if (sum / 4 <= 0.5) first[run] = std::stod(trace[i][3]);
  }
  const auto target = rows(slurp(d + "/time_to_target.csv"));
  REQUIRE(target.size() == 2);
  CHECK(std::stoul(target[1][2]) == first.size());
  CHECK(std::stoul(target[1][3]) == 3 - first.size());
  if (!first.empty()) {
    double mean = 0;
    for (const auto& [run, t] : first) mean += t;
    CHECK(std::stod(target[1][4]) == Approx(mean / static_cast<double>(first.size())));
  }
  // The same bytes on 2 threads.
  const std::string two = run_to("buffered_2", sets, 2);
  CHECK(slurp(two + "/summary_time.csv") == slurp(d + "/summary_time.csv"));
  CHECK(slurp(two + "/time_to_target.csv") == slurp(d + "/time_to_target.csv"));
  // Under rounds: none of these files, and their keys are refused.
  const std::string r = run_to("rounds", {"algorithm=dp_fts_de"});
  CHECK_FALSE(std::filesystem::exists(r + "/summary_time.csv"));
  CHECK_FALSE(std::filesystem::exists(r + "/time_to_target.csv"));
  CHECK_THROWS_WITH(config::load_config_text(kFour, "four.yaml", "four", {"output.time_grid=5"}),
                    Catch::Contains("four.yaml: output.time_grid") &&
                        Catch::Contains("applies only under a schedule.kind other than rounds"));
}
