// The server's stop rules (issue 29): server.budget, checked against the privacy module's own
// epsilon_series (the API of `fbosim privacy --steps`) and against the analytic Gaussian
// mechanism's closed form; server.stop_p against the closed form of 1 - p_t; what the agents
// do after the stop (local TS: a `dp_fts` run that never aggregates is `ts`, byte for byte);
// and the outputs (server.csv's and summary.csv's `aggregating`, a run with a budget it never
// reaches byte-identical to one without).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/privacy/epsilon_series.hpp"
#include "sim/config/config_loader.hpp"
#include "core/thread_pool.hpp"
#include "sim/run/experiment_runner.hpp"
#include "sim/run/run_engine.hpp"

using namespace fbosim;
using namespace fbosim::config;
using namespace fbosim::run;

namespace {

constexpr int kRounds = 8;
constexpr int kAgents = 6;

// DP-FTS-DE at a tiny size; every test adds the server keys it studies.
const std::string kTiny = fmt::format(
    "rounds: {}\nruns: 2\nseed: 5\n"
    "objective: {{family: gp_grid, grid_points: 200, lengthscale: 0.05}}\n"
    "agents: {{count: {}, init_points: 3}}\nexploration: {{subregions: 2}}\n"
    "rff: {{features: 20, lengthscale: 0.05}}\nlocal_ts: {{features: 30}}\n"
    "server: {{clip_norm: 5}}\n",
    kRounds, kAgents);

RunResult run_one(const std::vector<std::string>& sets, int run = 0) {
  const LoadedConfig c = load_config_text(kTiny, "tiny.yaml", "tiny", sets);
  core::ThreadPool pool(1);
  return RunEngine(c.spec, pool).run(run);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string run_to(const std::string& name, const std::vector<std::string>& sets, int threads = 1) {
  const auto dir = std::filesystem::temp_directory_path() / ("fbosim_test_stop_" + name);
  std::filesystem::remove_all(dir);
  const LoadedConfig c = load_config_text(kTiny, "tiny.yaml", "tiny", sets);
  RunOptions o;
  o.threads = threads;
  o.out_dir = dir.string();
  o.progress = false;
  run_experiment(c.spec, c.resolved, o);
  return dir.string();
}

// A CSV text without the column named `column` (every row).
std::string without_column(const std::string& csv, const std::string& column) {
  std::stringstream in(csv);
  std::string line, out;
  long drop = -1;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream l(line);
    for (std::string c; std::getline(l, c, ',');) cells.push_back(c);
    if (!line.empty() && line.back() == ',') cells.emplace_back();  // an empty last cell
    if (drop < 0) {
      const auto it = std::find(cells.begin(), cells.end(), column);
      REQUIRE(it != cells.end());
      drop = it - cells.begin();
    }
    REQUIRE(static_cast<long>(cells.size()) > drop);
    cells.erase(cells.begin() + drop);
    std::string row;
    for (std::size_t k = 0; k < cells.size(); ++k) row += (k ? "," : "") + cells[k];
    out += row + "\n";
  }
  return out;
}

// trace.csv's rows of rounds <= last (round is the third column), and whether every row of a
// later round came from the agent's own TS step.
std::string rows_through(const std::string& trace, int last) {
  std::stringstream in(trace);
  std::string line, out;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::stringstream l(line);
    std::string run, agent, round;
    std::getline(l, run, ',');
    std::getline(l, agent, ',');
    std::getline(l, round, ',');
    if (std::stoi(round) <= last) out += line + "\n";
  }
  return out;
}
bool local_after(const std::string& trace, int round_of_stop) {
  std::stringstream in(trace);
  std::string line;
  std::getline(in, line);
  int later = 0;
  while (std::getline(in, line)) {
    std::stringstream l(line);
    std::string run, agent, round;
    std::getline(l, run, ',');
    std::getline(l, agent, ',');
    std::getline(l, round, ',');
    if (std::stoi(round) <= round_of_stop) continue;
    ++later;
    if (line.substr(line.rfind(',') + 1) != "local") return false;
  }
  return later > 0;
}

int column_of(const RunResult& r, const std::string& name) {
  const auto it = std::find(r.server_columns.begin(), r.server_columns.end(), name);
  REQUIRE(it != r.server_columns.end());
  return static_cast<int>(it - r.server_columns.begin());
}

// The rounds a run aggregated, from server.csv's rows; checks that every row after the first
// non-aggregating one is one too, with nothing received and the epsilon left as it was.
int aggregated_rounds(const RunResult& r) {
  const int agg = column_of(r, "aggregating");
  const int received = column_of(r, "received");
  REQUIRE(r.server.size() == static_cast<std::size_t>(kRounds));
  int stop = kRounds;
  for (int t = 0; t < kRounds; ++t) {
    const ServerRow& row = r.server[static_cast<std::size_t>(t)];
    CHECK(row.round == t);
    if (row.stats[static_cast<std::size_t>(agg)] == "0" && stop == kRounds) stop = t;
    if (t >= stop) {
      INFO("round " << t << " after the stop at " << stop);
      CHECK(row.stats[static_cast<std::size_t>(agg)] == "0");
      CHECK(row.stats[static_cast<std::size_t>(received)] == "0");
      CHECK(row.epsilon == (t == 0 ? 0.0 : r.server[static_cast<std::size_t>(t) - 1].epsilon));
    } else {
      CHECK(row.stats[static_cast<std::size_t>(agg)] == "1");
    }
  }
  // The ledger's epsilon does not move after the stop (no further privacy events).
  for (int t = stop + 1; t <= kRounds; ++t)
    CHECK(r.epsilon[static_cast<std::size_t>(t)] == r.epsilon[static_cast<std::size_t>(stop)]);
  CHECK(r.final_epsilon == r.epsilon.back());
  return stop;
}

// Phi, the standard normal CDF.
double phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The tight epsilon of the Gaussian mechanism with mu = sensitivity / sigma at delta (Balle &
// Wang 2018, Thm. 8: delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)), by bisection
// (delta(eps) decreases in eps).
double analytic_gaussian_epsilon(double mu, double delta) {
  const auto d = [mu](double eps) {
    return phi(-eps / mu + mu / 2) - std::exp(eps) * phi(-eps / mu - mu / 2);
  };
  double lo = 0, hi = 100;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (d(mid) > delta ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

TEST_CASE(
    "server.budget: the server aggregates k rounds, epsilon(k rounds) <= budget < epsilon(k + 1 "
    "rounds) by the privacy module's epsilon_series, under each accountant") {
  struct Case {
    const char* accountant;
    double q, z;
  };
  const double delta = 1e-3;
  for (const Case& c : {Case{"moments", 0.5, 1.0}, Case{"rdp", 0.3, 1.5}, Case{"pld", 0.5, 2.0},
                        Case{"moments", 1.0, 3.0}}) {
    const privacy::DpEvent event =
        privacy::sampled_gaussian(privacy::Sampling::poisson, c.q, c.z, kAgents);
    std::vector<int> steps;
    for (int k = 1; k <= kRounds; ++k) steps.push_back(k);
    const auto series = privacy::epsilon_series(c.accountant, event, steps, delta);
    const auto eps = [&](int k) {
      return k == 0 ? 0.0 : series[static_cast<std::size_t>(k) - 1].epsilon;
    };
    // Budgets: below one round, between rounds 3 and 4, exactly round 5's (<= lets it pass),
    // and above the whole run.
    for (const double budget : {0.5 * eps(1), 0.5 * (eps(3) + eps(4)), eps(5), 2 * eps(kRounds)}) {
      int want = 0;
      while (want < kRounds && eps(want + 1) <= budget) ++want;
      INFO(c.accountant << " q = " << c.q << " z = " << c.z << " budget = " << budget
                        << " expected stop " << want);
      const RunResult r =
          run_one({fmt::format("server.accountant={}", c.accountant),
                   fmt::format("server.sampling_rate={}", c.q),
                   fmt::format("server.noise_multiplier={}", c.z),
                   fmt::format("server.delta={}", delta), fmt::format("server.budget={}", budget)});
      const int k = aggregated_rounds(r);
      CHECK(k == want);
      CHECK(eps(k) <= budget);
      if (k < kRounds) CHECK(budget < eps(k + 1));
      CHECK(r.final_epsilon <= budget);
      CHECK(r.final_epsilon == Approx(eps(k)).epsilon(1e-12).margin(1e-300));
      if (k == 0) CHECK(r.final_epsilon == 0.0);  // nothing was released
    }
  }
}

TEST_CASE(
    "server.budget against a closed form: with q = 1 the run's release is the Gaussian mechanism "
    "k times, whose tight epsilon (analytic Gaussian) the pld accountant bounds") {
  // k releases of noise multiplier z compose to one Gaussian mechanism with mu = sqrt(k) / z.
  const double z = 2.0, delta = 1e-3;
  const auto exact = [&](int k) { return analytic_gaussian_epsilon(std::sqrt(k) / z, delta); };
  for (const int k : {2, 4, 6}) {
    // A budget halfway between k and k + 1 rounds' true epsilons: pld's upper bound lies within
    // it (its discretisation error is far below the gap).
    const double budget = 0.5 * (exact(k) + exact(k + 1));
    INFO("k = " << k << ", exact epsilons " << exact(k) << ", " << exact(k + 1));
    const RunResult r =
        run_one({"server.accountant=pld", "server.sampling_rate=1", "server.noise_multiplier=2",
                 fmt::format("server.delta={}", delta), fmt::format("server.budget={}", budget)});
    CHECK(aggregated_rounds(r) == k);
    CHECK(r.final_epsilon >= exact(k));  // an upper bound
    CHECK(r.final_epsilon <= budget);
  }
}

TEST_CASE(
    "server.stop_p: the server aggregates while 1 - p_{t+1} >= stop_p (footnote 13), with "
    "server.budget, the first round either rule stops") {
  // inv_sqrt: 1 - p_t = 1/sqrt(t) < 0.45 from t = 5 (1/0.45^2 = 4.94): server rounds 0..3 feed
  // rounds 1..4; inv: 1/t < 0.3 from t = 4: server rounds 0..2.
  CHECK(aggregated_rounds(run_one({"server.stop_p=0.45"})) == 4);
  CHECK(aggregated_rounds(run_one({"server.stop_p=0.45", "exploration.schedule=inv"})) == 2);
  CHECK(aggregated_rounds(run_one({"server.stop_p=0.3", "exploration.schedule=inv"})) == 3);
  CHECK(aggregated_rounds(run_one({"server.stop_p=0.01"})) == kRounds);  // 1/sqrt(8) = 0.35
  // Without DP it stops the messages all the same (no epsilon to save, communication saved).
  const RunResult plain = run_one({"algorithm=fts_de", "server.stop_p=0.45"});
  CHECK(aggregated_rounds(plain) == 4);
  CHECK(plain.final_epsilon == 0.0);
  // Combined: the budget's stop when it comes first, stop_p's otherwise.
  const privacy::DpEvent event =
      privacy::sampled_gaussian(privacy::Sampling::poisson, 0.25, 1.0, kAgents);
  const auto e = privacy::epsilon_series("moments", event, {2, 3, 6, 7}, 1e-3);
  const std::string early = fmt::format("server.budget={}", 0.5 * (e[0].epsilon + e[1].epsilon));
  const std::string late = fmt::format("server.budget={}", 0.5 * (e[2].epsilon + e[3].epsilon));
  CHECK(aggregated_rounds(run_one({"server.delta=1e-3", early})) == 2);
  CHECK(aggregated_rounds(run_one({"server.delta=1e-3", late})) == 6);
  CHECK(aggregated_rounds(run_one({"server.delta=1e-3", "server.stop_p=0.45", early})) == 2);
  CHECK(aggregated_rounds(run_one({"server.delta=1e-3", "server.stop_p=0.45", late})) == 4);
}

TEST_CASE(
    "after the stop the agents take local TS steps: the run equals the one without a budget "
    "through the stop round, and a dp_fts run that never aggregates is ts, byte for byte") {
  const privacy::DpEvent event =
      privacy::sampled_gaussian(privacy::Sampling::poisson, 0.25, 1.0, kAgents);
  const auto e = privacy::epsilon_series("moments", event, {3, 4}, 1e-3);
  const std::string budget = fmt::format("server.budget={}", 0.5 * (e[0].epsilon + e[1].epsilon));
  const std::string free = run_to("free", {"server.delta=1e-3"});
  const std::string capped = run_to("capped", {"server.delta=1e-3", budget});
  const std::string ft = slurp(free + "/trace.csv"), ct = slurp(capped + "/trace.csv");
  // Rounds 0..3 use broadcasts of rounds 0..2 only: identical; round 4 on, every step is local.
  CHECK(rows_through(ft, 3) == rows_through(ct, 3));
  CHECK(local_after(ct, 3));
  CHECK_FALSE(local_after(ft, 3));  // without the budget the server's broadcast is followed
  CHECK(ft != ct);

  // A budget below one round's epsilon: no round aggregates. For DP-FTS (P = 1, initial points
  // on the whole domain) the agents then do exactly what standard TS does: same streams, same
  // coins, every step local.
  const std::string never =
      run_to("never", {"algorithm=dp_fts", "exploration.subregions=1", "server.budget=0.01"});
  const std::string ts = run_to("ts", {"algorithm=ts", "exploration.subregions=1"});
  CHECK(slurp(never + "/trace.csv") == slurp(ts + "/trace.csv"));
  const std::string summary = slurp(never + "/summary.csv");
  std::stringstream rows(summary);
  std::string line;
  std::getline(rows, line);
  CHECK(line ==
        "round,mean_regret,se_regret,mean_best_f,se_best_f,epsilon,delta,delta_times_n,n,"
        "aggregating");
  for (int t = 0; std::getline(rows, line); ++t) {
    const std::vector<std::string> cells = [&] {
      std::vector<std::string> out;
      std::stringstream l(line);
      for (std::string c; std::getline(l, c, ',');) out.push_back(c);
      if (line.back() == ',') out.emplace_back();
      return out;
    }();
    REQUIRE(cells.size() == 10);
    CHECK(cells[5] == "0");                       // epsilon: nothing released
    CHECK(cells[9] == (t < kRounds ? "0" : ""));  // round T: no server round
  }
}

TEST_CASE(
    "a budget above the whole run's epsilon changes nothing but the `aggregating` column, the "
    "outputs stay the same for any thread count") {
  const std::string free = run_to("free_all", {});
  const std::string rich = run_to("rich", {"server.budget=1000"});
  CHECK(slurp(free + "/trace.csv") == slurp(rich + "/trace.csv"));
  CHECK(slurp(free + "/server.csv") == without_column(slurp(rich + "/server.csv"), "aggregating"));
  CHECK(slurp(free + "/summary.csv") ==
        without_column(slurp(rich + "/summary.csv"), "aggregating"));
  CHECK(slurp(free + "/server.csv").find("aggregating") == std::string::npos);
  const std::string a = run_to("budget_t1", {"server.budget=3", "server.stop_p=0.4"}, 1);
  const std::string b = run_to("budget_t3", {"server.budget=3", "server.stop_p=0.4"}, 3);
  for (const char* f : {"/trace.csv", "/server.csv", "/summary.csv"}) {
    INFO(f);
    CHECK(slurp(a + f) == slurp(b + f));
  }
}
