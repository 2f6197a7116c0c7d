// The real-world families end to end through the engine, on small data the tests generate
// (UCI HAR layout) or the shared copies (landmine, FEMNIST).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "../../datasets/activity/har_fixture.hpp"
#include "sim/config/config_loader.hpp"
#include "core/thread_pool.hpp"
#include "sim/run/run_engine.hpp"
#include "tests/data_sets.hpp"

using namespace fbosim;
using namespace fbosim::config;
using namespace fbosim::run;

TEST_CASE("an activity experiment runs on HAR-layout data: scores in [0, 1], no regret") {
  har_fixture::TempDir root("engine");
  core::RngStream rng = core::RngFactory(5, 0).stream("fixture");
  const auto dir = root.path() / "har" / "UCI HAR Dataset";
  har_fixture::write_tree(dir, har_fixture::make_rows({1, 2}, 24, 2.0, rng),
                          har_fixture::make_rows({3}, 24, 2.0, rng));
  const LoadedConfig c = load_config_text(
      "rounds: 2\nruns: 1\nobjective: {family: activity, epochs: 5}\n"
      "agents: {count: 3, init_points: 2}\nexploration: {subregions: 2, schedule: inv}\n"
      "rff: {features: 20, lengthscale: 0.01, lambda: 1.0e-6}\n"
      "gp: {fit: true, lengthscale: 1.0, signal_var: 0.1, noise_var: 1.0e-6}\n"
      "acquisition: {random_points: 50, starts: 2}\n"
      "server: {dp: true, sampling_rate: 0.5, clip_norm: 22}\n",
      "act.yaml", "act", {"datasets.root=" + root.path().string()});
  core::ThreadPool pool(2);
  const RunResult r = RunEngine(c.spec, pool).run(0);
  CHECK(r.dim == 3);
  for (Eigen::Index t = 0; t < r.best_f.rows(); ++t)
    for (Eigen::Index n = 0; n < r.best_f.cols(); ++n) {
      CHECK(r.best_f(t, n) >= 0.0);
      CHECK(r.best_f(t, n) <= 1.0);
      CHECK(std::isnan(r.regret(t, n)));
    }
  // 4 agents > 3 subjects: refused before any run, naming the key.
  const LoadedConfig too_many =
      load_config_text("objective: {family: activity}\nagents: {count: 4}\n", "act.yaml", "act",
                       {"datasets.root=" + root.path().string()});
  CHECK_THROWS_WITH(RunEngine(too_many.spec, pool), Catch::Contains("agents.count"));
}

TEST_CASE("a real-world family without its data fails before any run, naming the path") {
  const LoadedConfig c =
      load_config_text("objective: {family: activity}\nagents: {count: 3}\n", "act.yaml", "act",
                       {"datasets.root=/nonexistent/fbosim-data"});
  core::ThreadPool pool(1);
  CHECK_THROWS_WITH(RunEngine(c.spec, pool), Catch::Contains("/nonexistent/fbosim-data/har"));
}

TEST_CASE("keys of another family are unknown keys") {
  CHECK_THROWS_WITH(
      load_config_text("objective: {family: activity, grid_points: 10}\n", "a.yaml", "a", {}),
      Catch::Contains("objective.grid_points"));
}

// Issue #27: the EMNIST CNN sums in one fixed order, so a run's trace (every accuracy, to 17
// digits) is the same whatever the number of threads training the agents' CNNs at once.
TEST_CASE("an EMNIST run gives the same trace on 1, 2 and 3 threads") {
  const std::string shared = fbosim::testing::data_root();
  if (!fbosim::testing::have_data("femnist_digits")) return;
  const LoadedConfig c = load_config_text(
      "rounds: 2\nruns: 1\nobjective: {family: emnist, epochs: 1}\n"
      "agents: {count: 5, init_points: 2}\nexploration: {subregions: 2, schedule: inv}\n"
      "rff: {features: 20, lengthscale: 0.01, lambda: 1.0e-6}\n"
      "acquisition: {random_points: 50, starts: 2}\n"
      "server: {dp: true, sampling_rate: 0.5, clip_norm: 22}\n",
      "emnist.yaml", "emnist", {"datasets.root=" + shared});
  std::vector<std::string> traces;
  for (const int threads : {1, 2, 3}) {
    core::ThreadPool pool(threads);
    const RunResult r = RunEngine(c.spec, pool).run(0);
    CHECK(r.best_f.maxCoeff() > 0.1);  // better than chance on some writer
    traces.push_back(r.trace_csv);
  }
  CHECK(traces[0].size() > 100);
  CHECK(traces[0] == traces[1]);
  CHECK(traces[0] == traces[2]);
}
