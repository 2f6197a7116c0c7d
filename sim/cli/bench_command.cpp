// fbosim bench [--case NAME|all] [--threads K] [--repeats R] [--set key=value]... [--callgrind]
// Agent-iterations per second of the simulator itself (no files written), median of repeats;
// with --callgrind also instructions per agent-iteration, counted by re-executing this command
// under `valgrind --tool=callgrind` (instruction counts do not depend on the load of a shared
// machine, times do).
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "datasets/objective_factory.hpp"
#include "sim/cli/commands.hpp"
#include "sim/config/config_loader.hpp"
#include "core/thread_pool.hpp"
#include "sim/output/interrupt.hpp"
#include "sim/run/run_engine.hpp"

#if defined(FBOSIM_HAVE_CALLGRIND)
#include <valgrind/callgrind.h>
#define FBOSIM_CALLGRIND_ZERO() CALLGRIND_ZERO_STATS
#define FBOSIM_CALLGRIND_DUMP(name) CALLGRIND_DUMP_STATS_AT(name)
#else
#define FBOSIM_CALLGRIND_ZERO() ((void)0)
#define FBOSIM_CALLGRIND_DUMP(name) ((void)(name))
#endif

namespace fbosim::cli {

namespace {
namespace fs = std::filesystem;

struct BenchCase {
  const char* name;
  const char* yaml;
};

// The default synthetic experiment (configs/dp_fts_de/synthetic.yaml, one run) at N = 200 and
// N = 20; a continuous 2-D box with M = 100, L-BFGS-B acquisition and marginal-likelihood
// refits; and the landmine DP-FTS-DE run (configs/dp_fts_de/landmine.yaml, one run; needs the
// data under datasets.root, $FBOSIM_DATA).
#define FBOSIM_SYNTHETIC_YAML                                                               \
  "algorithm: dp_fts_de\nrounds: 60\nruns: 1\nseed: 0\n"                                    \
  "objective: {family: gp_grid, grid_points: 1000, lengthscale: 0.03, perturbation: 0.02, " \
  "noise_var: 0.01}\n"                                                                      \
  "exploration: {subregions: 2, schedule: inv_sqrt, weights: {scheme: softmax, start: 16, " \
  "end: 1, hold: 5, decay: 5, adaptive: true}}\n"                                           \
  "rff: {features: 50, lengthscale: 0.03, lambda: 0.01}\nlocal_ts: {features: 100}\n"       \
  "gp: {fit: false, lengthscale: 0.03, signal_var: 1.0, noise_var: 0.01}\n"                 \
  "server: {dp: true, sampling: poisson, sampling_rate: 0.25, noise_multiplier: 1.0, "      \
  "clip_norm: 11, accountant: moments}\n"
const BenchCase kCases[] = {
    {"synthetic", FBOSIM_SYNTHETIC_YAML "agents: {count: 200, init_points: 10, init: region}\n"},
    {"synthetic20", FBOSIM_SYNTHETIC_YAML "agents: {count: 20, init_points: 10, init: region}\n"},
    {"box2d",
     "rounds: 60\nruns: 1\nagents: {count: 20}\n"
     "objective: {family: gp_box, dim: 2, lengthscale: 0.2, perturbation: 0.05}\n"
     "exploration: {subregions: 4, schedule: inv}\n"
     "rff: {features: 100, lengthscale: 0.2, lambda: 0.01}\n"
     "gp: {fit: true, lengthscale: 1.0, signal_var: 0.1, noise_var: 1.0e-6}\n"
     "server: {dp: true, sampling_rate: 0.35, noise_multiplier: 1, clip_norm: 22}\n"},
    {"landmine",
     "algorithm: dp_fts_de\nrounds: 60\nruns: 1\nseed: 0\n"
     "objective: {family: landmine, split_seed: 0, cv_folds: 5}\n"
     "agents: {count: 29, init_points: 10, init: region}\n"
     "exploration: {subregions: 4, schedule: inv, weights: {scheme: softmax, start: 16, end: 1, "
     "hold: 10, decay: 30, adaptive: true}}\n"
     "rff: {features: 100, lengthscale: 0.01, lambda: 1.0e-6}\nlocal_ts: {features: 100}\n"
     "gp: {fit: true, lengthscale: 1.0, signal_var: 0.1, noise_var: 1.0e-6}\n"
     "server: {dp: true, sampling: poisson, sampling_rate: 0.35, noise_multiplier: 1.0, "
     "clip_norm: 22}\n"},
};
#undef FBOSIM_SYNTHETIC_YAML

bool selected(const BenchArgs& a, const BenchCase& c) {
  return a.which == "all" || a.which == c.name;
}

// Instructions of one case (one run), from the callgrind dumps of the re-executed process:
// `setup` covers drawing the objectives, building the agents and round 0 (the initial points),
// `rounds` rounds 1..T.
struct Instructions {
  double setup = 0, rounds = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The child under callgrind: one run per selected case, statistics zeroed before it and dumped
// after round 0 ("<case>.setup") and after round T ("<case>.rounds"). Prints nothing.
void run_child(const BenchArgs& a, core::ThreadPool& pool) {
  for (const BenchCase& c : kCases) {
    if (!selected(a, c)) continue;
    const config::LoadedConfig cfg = config::load_config_text(c.yaml, c.name, c.name, a.sets);
    const run::RunEngine engine(cfg.spec, pool);
    const std::string setup = std::string(c.name) + ".setup";
    const std::string rounds = std::string(c.name) + ".rounds";
    FBOSIM_CALLGRIND_ZERO();
    engine.run(0, [&](int t, int last) {
      if (t == 0) FBOSIM_CALLGRIND_DUMP(setup.c_str());
      if (t == last) FBOSIM_CALLGRIND_DUMP(rounds.c_str());
    });
  }
}

// Runs this command again under callgrind and reads the counts of its dumps.
std::map<std::string, Instructions> count_instructions(const BenchArgs& a) {
#if !defined(FBOSIM_HAVE_CALLGRIND)
  (void)a;
  throw std::runtime_error("bench --callgrind: fbosim was built without valgrind/callgrind.h");
#else
  char dir_template[] = "/tmp/fbosim-bench-XXXXXX";
  if (!mkdtemp(dir_template)) throw std::runtime_error("bench --callgrind: cannot make a temp dir");
  const fs::path dir = dir_template;
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  std::vector<std::string> argv = {"valgrind",
                                   "-q",
                                   "--tool=callgrind",
                                   "--callgrind-out-file=" + (dir / "cg.%p").string(),
                                   self,
                                   "bench",
                                   "--case",
                                   a.which,
                                   "--threads",
                                   std::to_string(a.threads),
                                   "--callgrind-child",
                                   dir.string()};
  for (const std::string& s : a.sets) argv.insert(argv.end(), {"--set", s});
  std::vector<char*> raw;
  for (std::string& s : argv) raw.push_back(s.data());
  raw.push_back(nullptr);
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    execvp(raw[0], raw.data());
    std::fprintf(stderr, "fbosim: bench --callgrind: cannot run valgrind (is it installed?)\n");
    _exit(127);
  }
  // If Ctrl-C/SIGTERM ends fbosim before the child, the child goes too (interrupt.hpp).
  const output::ExitCleanup stop_child([pid, dir] {
    if (pid > 0) ::kill(pid, SIGTERM);
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  });
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    fs::remove_all(dir);
    throw std::runtime_error("bench --callgrind: the run under valgrind failed");
  }
  // Each dump file names its trigger ("desc: Trigger: Client Request: <name>") and its total
  // ("summary: <Ir>", or "totals:").
  std::map<std::string, Instructions> out;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path());
    std::string line, name;
    double total = -1;
    const std::string trigger = "desc: Trigger: Client Request: ";
    while (std::getline(in, line)) {
      if (line.rfind(trigger, 0) == 0) name = line.substr(trigger.size());
      if (line.rfind("summary: ", 0) == 0) total = std::stod(line.substr(9));
      if (total < 0 && line.rfind("totals: ", 0) == 0) total = std::stod(line.substr(8));
    }
    const auto dot = name.rfind('.');
    if (dot == std::string::npos || total < 0) continue;
    Instructions& i = out[name.substr(0, dot)];
    (name.substr(dot + 1) == "setup" ? i.setup : i.rounds) = total;
  }
  fs::remove_all(dir);
  return out;
#endif
}

}  // namespace

std::vector<std::string> bench_case_names() {
  std::vector<std::string> names = {"all"};
  for (const BenchCase& c : kCases) names.push_back(c.name);
  return names;
}

void run(const BenchArgs& a) {
  const int threads = a.threads > 0 ? a.threads : core::ThreadPool::hardware_threads();
  core::ThreadPool pool(threads);
  if (!a.callgrind_child.empty()) return run_child(a, pool);
  std::map<std::string, Instructions> counts;
  if (a.callgrind) {
    BenchArgs child = a;
    child.threads = threads;
    counts = count_instructions(child);
  }
  // seconds: whole run; setup: drawing objectives, building the agents and round 0 (the
  // initial points); the per-iteration figures use rounds 1..T alone.
  std::printf("%-11s %6s %6s %7s %8s %7s %13s %18s", "case", "agents", "rounds", "threads",
              "seconds", "setup", "agent_iters/s", "ms/agent_iter*core");
  if (a.callgrind) std::printf(" %17s %12s", "Minstr/agent_iter", "setup_Ginstr");
  std::printf("\n");
  for (const BenchCase& c : kCases) {
    if (!selected(a, c)) continue;
    const config::LoadedConfig cfg = config::load_config_text(c.yaml, c.name, c.name, a.sets);
    std::optional<run::RunEngine> engine;
    try {
      engine.emplace(cfg.spec, pool);
    } catch (const std::exception& e) {
      if (a.which == "all" && datasets::is_real_world(cfg.spec.objective.family)) {  // no data here
        std::printf("%-11s skipped: %s\n", c.name, e.what());
        continue;
      }
      throw;
    }
    std::vector<double> seconds, setup, rounds;
    for (int r = 0; r < a.repeats; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const run::RunResult res = engine->run(r);
      seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      double later = 0;
      for (std::size_t t = 1; t < res.round_seconds.size(); ++t) later += res.round_seconds[t];
      rounds.push_back(later);
      setup.push_back(seconds.back() - later);
    }
    const double iters = static_cast<double>(cfg.spec.agents) * cfg.spec.rounds;
    std::printf("%-11s %6d %6d %7d %8.3f %7.3f %13.0f %18.3f", c.name, cfg.spec.agents,
                cfg.spec.rounds, threads, median(seconds), median(setup), iters / median(rounds),
                1000.0 * median(rounds) * threads / iters);
    if (a.callgrind) {
      const auto it = counts.find(c.name);
      if (it == counts.end())
        throw std::runtime_error("bench --callgrind: no counts for " + std::string(c.name));
      std::printf(" %17.3f %12.3f", it->second.rounds / iters / 1e6, it->second.setup / 1e9);
    }
    std::printf("\n");
  }
}

}  // namespace fbosim::cli
