// fbosim bench [--case synthetic|box2d|all] [--threads K] [--repeats R]
// Agent-iterations per second of the simulator itself (no files written), median of repeats.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/core/thread_pool.hpp"
#include "sim/experiment/config_loader.hpp"
#include "sim/experiment/run_engine.hpp"

namespace fbosim::cli {

namespace {
struct BenchArgs {
  std::string which = "all";
  int threads = 0;
  int repeats = 3;
};

struct BenchCase {
  const char* name;
  const char* yaml;
};

// The synthetic setting of the target (N = 200, 60 rounds, M = 50, DP-FTS-DE P = 2),
// and a continuous 2-D box with M = 100, L-BFGS-B acquisition and marginal-likelihood refits.
const BenchCase kCases[] = {
    {"synthetic",
     "rounds: 60\nruns: 1\nagents: {count: 200}\nexploration: {subregions: 2}\n"
     "rff: {features: 50}\nserver: {dp: true, sampling_rate: 0.25, noise_multiplier: 1, "
     "clip_norm: 11}\n"},
    {"box2d",
     "rounds: 60\nruns: 1\nagents: {count: 20}\n"
     "objective: {family: gp_box, dim: 2, lengthscale: 0.2, perturbation: 0.05}\n"
     "exploration: {subregions: 4, schedule: inv}\n"
     "rff: {features: 100, lengthscale: 0.2, lambda: 0.01}\n"
     "gp: {fit: true, lengthscale: 1.0, signal_var: 0.1, noise_var: 1.0e-6}\n"
     "server: {dp: true, sampling_rate: 0.35, noise_multiplier: 1, clip_norm: 22}\n"},
};

void run(const BenchArgs& a) {
  const int threads = a.threads > 0 ? a.threads : core::ThreadPool::hardware_threads();
  core::ThreadPool pool(threads);
  // seconds: whole run; setup: drawing objectives and shared features (not agent work);
  // the per-iteration figures use the rounds alone (seconds - setup).
  std::printf("%-10s %7s %7s %8s %9s %8s %14s %19s\n", "case", "agents", "rounds", "threads",
              "seconds", "setup", "agent_iters/s", "ms/agent_iter*core");
  for (const BenchCase& c : kCases) {
    if (a.which != "all" && a.which != c.name) continue;
    const sim::LoadedConfig cfg = sim::load_config_text(c.yaml, c.name, c.name, {});
    std::vector<double> seconds, setup, rounds;
    const sim::RunEngine engine(cfg.spec, pool);
    for (int r = 0; r < a.repeats; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const sim::RunResult res = engine.run(r);
      seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      setup.push_back(res.setup_seconds);
      rounds.push_back(seconds.back() - res.setup_seconds);
    }
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    const double iters = static_cast<double>(cfg.spec.agents) * cfg.spec.rounds;
    std::printf("%-10s %7d %7d %8d %9.3f %8.3f %14.0f %19.3f\n", c.name, cfg.spec.agents,
                cfg.spec.rounds, threads, median(seconds), median(setup), iters / median(rounds),
                1000.0 * median(rounds) * threads / iters);
  }
}
}  // namespace

void add_bench_command(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Time the simulator: agent-iterations per second (median of --repeats runs)");
  cmd->add_option("--case", args->which, "synthetic, box2d or all")
      ->check(CLI::IsMember({"synthetic", "box2d", "all"}));
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)")
      ->check(integer_in(1, kMaxThreads));
  cmd->add_option("--repeats", args->repeats, "Runs per case (median reported)")
      ->check(integer_in(1, 1000));
  cmd->callback([args] { run(*args); });
}

}  // namespace fbosim::cli
