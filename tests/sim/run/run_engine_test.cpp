#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/config/config_loader.hpp"
#include "core/thread_pool.hpp"
#include "sim/output/csv_table.hpp"
#include "sim/run/experiment_runner.hpp"
#include "sim/run/run_engine.hpp"

using namespace fbosim;
using namespace fbosim::config;
using namespace fbosim::output;
using namespace fbosim::run;

namespace {
const char* kTiny =
    "rounds: 6\nruns: 2\nseed: 3\n"
    "objective: {family: gp_grid, grid_points: 200, lengthscale: 0.05}\n"
    "agents: {count: 6, init_points: 3}\nexploration: {subregions: 2}\n"
    "rff: {features: 20, lengthscale: 0.05}\nlocal_ts: {features: 30}\n"
    "server: {dp: true, sampling_rate: 0.5, noise_multiplier: 1, clip_norm: 5}\n";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string run_to(const std::string& dir, int threads, const std::vector<std::string>& sets = {}) {
  const LoadedConfig c = load_config_text(kTiny, "tiny.yaml", "tiny", sets);
  RunOptions o;
  o.threads = threads;
  o.out_dir = dir;
  o.progress = false;
  run_experiment(c.spec, c.resolved, o);
  return dir;
}

std::string temp_dir(const std::string& name) {
  const auto p = std::filesystem::temp_directory_path() / ("fbosim_test_" + name);
  std::filesystem::remove_all(p);
  return p.string();
}
}  // namespace

TEST_CASE("a tiny run writes the four outputs with the documented columns") {
  const std::string dir = run_to(temp_dir("outputs"), 1);
  const std::string trace = slurp(dir + "/trace.csv");
  CHECK(trace.rfind("run,agent,round,x0,y,f,best_f,regret,source\n", 0) == 0);
  // 2 runs x 6 agents x (3 init + 6 rounds) rows + header
  CHECK(std::count(trace.begin(), trace.end(), '\n') == 1 + 2 * 6 * 9);
  CHECK(trace.find(",init\n") != std::string::npos);
  CHECK(slurp(dir + "/server.csv")
            .rfind("run,round,time,received,selected,clipped,noise_std,epsilon,delta\n", 0) == 0);
  const std::string summary = slurp(dir + "/summary.csv");
  CHECK(summary.rfind(
            "round,mean_regret,se_regret,mean_best_f,se_best_f,epsilon,delta,delta_times_n,n\n",
            0) == 0);
  CHECK(std::count(summary.begin(), summary.end(), '\n') == 1 + 7);
  CHECK(std::filesystem::exists(dir + "/config.resolved.yaml"));
  // No temporaries are left behind.
  for (const auto& e : std::filesystem::directory_iterator(dir))
    CHECK(e.path().extension() != ".tmp");
}

TEST_CASE("outputs are byte-identical for any thread count") {
  const std::string a = run_to(temp_dir("threads1"), 1);
  const std::string b = run_to(temp_dir("threads2"), 2);
  const std::string c = run_to(temp_dir("threads3"), 3);
  for (const char* f : {"/trace.csv", "/server.csv", "/summary.csv", "/config.resolved.yaml"}) {
    INFO(f);
    CHECK(slurp(a + f) == slurp(b + f));
    CHECK(slurp(a + f) == slurp(c + f));
  }
}

TEST_CASE("changing q, z or S keeps the agents' objectives and initial points") {
  const std::string a = run_to(temp_dir("crn_a"), 1);
  const std::string b =
      run_to(temp_dir("crn_b"), 1,
             {"server.sampling_rate=0.9", "server.noise_multiplier=3", "server.clip_norm=2"});
  auto init_rows = [](const std::string& trace) {
    std::stringstream in(trace);
    std::string line, out;
    while (std::getline(in, line))
      if (line.find(",init") != std::string::npos) out += line + "\n";
    return out;
  };
  const std::string ta = slurp(a + "/trace.csv"), tb = slurp(b + "/trace.csv");
  CHECK_FALSE(init_rows(ta).empty());
  CHECK(init_rows(ta) == init_rows(tb));
  CHECK(ta != tb);  // the server's parameters do change what follows
}

TEST_CASE("best_f never decreases and regret is optimum minus best_f") {
  const LoadedConfig c = load_config_text(kTiny, "tiny.yaml", "tiny", {});
  core::ThreadPool pool(1);
  const RunResult r = RunEngine(c.spec, pool).run(0);
  for (Eigen::Index t = 1; t < r.best_f.rows(); ++t)
    for (Eigen::Index n = 0; n < r.best_f.cols(); ++n) {
      CHECK(r.best_f(t, n) >= r.best_f(t - 1, n));
      CHECK(r.regret(t, n) >= -1e-12);
    }
  // The accountant composes one step per aggregation (rounds 0..T-1).
  CHECK(r.server.size() == 6);
  CHECK(r.epsilon[0] == 0.0);
  CHECK(r.epsilon[1] > 0.0);
  CHECK(r.server.back().epsilon > r.server.front().epsilon);
}

TEST_CASE("stragglers past the deadline and dropouts do not reach the server") {
  const LoadedConfig c = load_config_text(
      kTiny, "tiny.yaml", "tiny",
      {"network.latency.distribution=uniform", "network.latency.min=0", "network.latency.max=100",
       "network.deadline=50", "network.dropout=0.2", "algorithm=fts_de", "server.dp=false"});
  core::ThreadPool pool(1);
  const RunResult r = RunEngine(c.spec, pool).run(0);
  int received = 0;
  for (const ServerRow& s : r.server) {
    received += std::stoi(s.stats[0]);  // received
    CHECK(s.time % 50 == 0);            // every round closes at its deadline
  }
  // Expected fraction: 0.8 (no dropout) x ~0.5 (on time) of 6 agents x 6 rounds.
  CHECK(received < 6 * 6);
  CHECK(received > 0);
}

// summary.csv's s.e. (issue #15): over the runs' means by default, recomputed here from
// trace.csv's rows; over every (agent, run) pair with standard_error: pairs.
namespace {
struct RunMeans {
  std::vector<double> pairs;      // the last round's regret of every (run, agent)
  std::vector<double> run_means;  // their mean per run
};
RunMeans last_round_regret(const std::string& dir, int runs, int agents, int round) {
  const CsvTable t = CsvTable::read(dir + "/trace.csv");
  const int cr = t.column("run", "trace"), cg = t.column("round", "trace"),
            cx = t.column("regret", "trace");
  RunMeans m;
  m.run_means.assign(runs, 0.0);
  for (const auto& row : t.rows) {
    if (std::stoi(row[cg]) != round) continue;
    const double v = std::stod(row[cx]);
    m.pairs.push_back(v);
    m.run_means[std::stoi(row[cr])] += v / agents;
  }
  return m;
}
double se(const std::vector<double>& v) {
  double mean = 0, ss = 0;
  for (double x : v) mean += x / v.size();
  for (double x : v) ss += (x - mean) * (x - mean);
  return std::sqrt(ss / (v.size() - 1) / v.size());
}
double summary_cell(const std::string& dir, const std::string& column) {
  const CsvTable s = CsvTable::read(dir + "/summary.csv");
  const std::string& cell = s.rows.back()[s.column(column, "summary")];
  return cell.empty() ? std::nan("") : std::stod(cell);
}
}  // namespace

TEST_CASE("summary.csv's s.e. is over the runs' means, or over pairs when asked") {
  const std::string runs_dir = run_to(temp_dir("se_runs"), 1, {"runs=4"});
  const std::string pairs_dir = run_to(temp_dir("se_pairs"), 1, {"runs=4", "standard_error=pairs"});
  // The trace's last round is round 6 of rounds 0..6 (the initial points are rows of round 0).
  const RunMeans m = last_round_regret(runs_dir, 4, 6, 6);
  REQUIRE(m.pairs.size() == 24);
  CHECK(summary_cell(runs_dir, "se_regret") == Approx(se(m.run_means)).epsilon(1e-12));
  CHECK(summary_cell(pairs_dir, "se_regret") == Approx(se(m.pairs)).epsilon(1e-12));
  CHECK(summary_cell(runs_dir, "mean_regret") == summary_cell(pairs_dir, "mean_regret"));
  // One run has no standard error over runs: the cell is empty, never 0.
  CHECK(std::isnan(summary_cell(run_to(temp_dir("se_one"), 1, {"runs=1"}), "se_regret")));
}

TEST_CASE("algorithm ts initialises on the whole domain, whatever exploration.subregions says") {
  // kTiny has P = 2: FTS-DE puts agent n's initial points in region n mod 2 (x < 0.5 or not);
  // TS, with 6 agents x 3 points x 4 runs, must put some outside (all inside: 2^-72).
  const auto outside = [](const std::string& dir) {
    const CsvTable t = CsvTable::read(dir + "/trace.csv");
    const int ca = t.column("agent", "trace"), cx = t.column("x0", "trace"),
              cs = t.column("source", "trace");
    int n = 0;
    for (const auto& row : t.rows)
      if (row[cs] == "init") n += (std::stod(row[cx]) < 0.5) != (std::stoi(row[ca]) % 2 == 0);
    return n;
  };
  CHECK(outside(run_to(temp_dir("init_fts_de"), 1, {"runs=4"})) == 0);
  CHECK(outside(run_to(temp_dir("init_ts"), 1, {"runs=4", "algorithm=ts"})) > 0);
}
