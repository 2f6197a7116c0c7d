#include "sim/config/resource_estimate.hpp"

#include <sys/resource.h>
#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <thread>

#include <fmt/format.h>

#include "algorithms/systems/algorithm_registry.hpp"
#include "datasets/objective_factory.hpp"

namespace fbosim::config {

namespace {

constexpr double kGiB = 1ull << 30;

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The tightest memory limit of this process's cgroup and its ancestors ("" if none is set):
// cgroup v2 (the "0::<path>" line of /proc/self/cgroup, memory.max along the path), else v1's
// memory.limit_in_bytes.
std::string cgroup_limit_text() {
  namespace fs = std::filesystem;
  std::ifstream in("/proc/self/cgroup");
  std::string line, path;
  while (std::getline(in, line))
    if (line.rfind("0::", 0) == 0) path = line.substr(3);
  double best = std::numeric_limits<double>::infinity();
  if (!path.empty()) {
    for (fs::path p = fs::path("/sys/fs/cgroup") / fs::path(path).relative_path();;
         p = p.parent_path()) {
      const std::string v = first_line((p / "memory.max").string());
      if (!v.empty() && v != "max") best = std::min(best, std::strtod(v.c_str(), nullptr));
      if (p == "/sys/fs/cgroup" || p == p.parent_path()) break;
    }
  }
  if (best == std::numeric_limits<double>::infinity()) {
    const std::string v1 = first_line("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    if (!v1.empty()) best = std::strtod(v1.c_str(), nullptr);
  }
  return best == std::numeric_limits<double>::infinity() ? "" : fmt::format("{:.0f}", best);
}

double rlimit_bytes(int resource) {
  rlimit r{};
  if (getrlimit(resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return -1;
  return static_cast<double>(r.rlim_cur);
}

}  // namespace

MemoryLimit memory_limit_from(double physical_bytes, const std::string& cgroup_limit,
                              double rlimit_as, double rlimit_data) {
  MemoryLimit m{physical_bytes,
                fmt::format("the machine's memory, {:.3g} GiB", physical_bytes / kGiB)};
  const auto tighter = [&](double bytes, const std::string& what) {
    if (bytes > 0 && bytes < m.bytes)
      m = {bytes, fmt::format("{}, {:.3g} GiB", what, bytes / kGiB)};
  };
  if (!cgroup_limit.empty() && cgroup_limit != "max")
    tighter(std::strtod(cgroup_limit.c_str(), nullptr), "the cgroup's memory limit");
  tighter(rlimit_as, "ulimit -v");
  tighter(rlimit_data, "ulimit -d");
  return m;
}

const MemoryLimit& memory_limit() {
  static const MemoryLimit limit = [] {
    const double pages = static_cast<double>(sysconf(_SC_PHYS_PAGES));
    const double page = static_cast<double>(sysconf(_SC_PAGE_SIZE));
    // Without sysconf's answer, the old fixed bound.
    const double physical = pages > 0 && page > 0 ? pages * page : 64 * kGiB;
    return memory_limit_from(physical, cgroup_limit_text(), rlimit_bytes(RLIMIT_AS),
                             rlimit_bytes(RLIMIT_DATA));
  }();
  return limit;
}

double estimated_seconds(const ResourceEstimate& e, int threads) {
  return e.flops() / (kFlopsPerCoreSecond * std::max(1, threads));
}

std::string duration_text(double seconds) {
  if (seconds < 120) return fmt::format("{:.0f} s", seconds);
  if (seconds < 2 * 3600.0) return fmt::format("{:.0f} minutes", seconds / 60);
  if (seconds < 2 * 86400.0) return fmt::format("{:.1f} hours", seconds / 3600);
  if (seconds < 365 * 86400.0) return fmt::format("{:.0f} days", seconds / 86400);
  return fmt::format("{:.3g} years", seconds / (365.25 * 86400));
}

std::string resource_refusal(const ResourceEstimate& e, const MemoryLimit& limit) {
  if (e.bytes() > limit.bytes)
    return fmt::format(
        "the experiment would hold about {:.3g} GiB in memory, more than this process may use "
        "({}); the largest part: {}",
        e.bytes() / kGiB, limit.what, ResourceEstimate::largest(e.memory).what);
  if (e.flops() > kMaxFlops) {
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return fmt::format(
        "the experiment would take about {:.3g} floating-point operations, more than the {:g} "
        "allowed: up to about {} on one core ({} on this machine's {} cores); the largest part: "
        "{}",
        e.flops(), kMaxFlops, duration_text(estimated_seconds(e, 1)),
        duration_text(estimated_seconds(e, cores)), cores, ResourceEstimate::largest(e.work).what);
  }
  return "";
}

namespace {
// A family on a 1-D grid samples its functions from the GP prior on the grid (gp_grid,
// heterogeneous): n^2 memory and n^3 work, and the acquisition scans the grid.
bool grid_prior(const ExperimentSpec& s) {
  return s.objective_shape.domain == core::DomainKind::grid && s.objective_shape.dimension == 1;
}
}  // namespace

protocol::ExperimentFacts experiment_facts(const ExperimentSpec& s) {
  const auto& shape = s.objective_shape;
  protocol::ExperimentFacts f{s.algorithm,
                              s.agents,
                              s.objective.family,
                              shape.domain,
                              shape.dimension,
                              shape.points,
                              datasets::is_real_world(s.objective.family)};
  f.runs = s.runs;
  f.rounds = s.rounds;
  f.seed = s.seed;
  f.convex_lipschitz_score = shape.convex_lipschitz_score;
  // The family's work per evaluation, where it declares one (settings hold its struct once the
  // config is read).
  const datasets::ObjectiveFamilyEntry* family =
      datasets::objective_registry().find(s.objective.family);
  if (family && family->evaluation_work && s.objective.settings.has_value()) {
    const auto w = family->evaluation_work(s.objective.settings);
    f.evaluation_work = w.operations;
    f.evaluation_what = w.what;
  }
  return f;
}

bool user_program_objective(const ExperimentSpec& s) {
  return s.objective.family == "command" || s.objective.family == "python";
}

EvaluationCount objective_evaluations(const ExperimentSpec& s) {
  EvaluationCount n;
  if (!s.system) return n;
  // The algorithm counts its evaluations in its work term for them: at one operation each, the
  // term is the count (protocol::add_evaluation_work).
  protocol::ExperimentFacts f = experiment_facts(s);
  f.evaluation_work = 1;
  f.evaluation_what = "(counted)";
  ResourceEstimate e;
  s.system->estimate(f, e);
  const std::string suffix = " objective evaluations x (counted)";
  for (const ResourceTerm& t : e.work) {
    if (t.what.size() < suffix.size() ||
        t.what.compare(t.what.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    n.evaluations += t.amount;
    n.what += (n.what.empty() ? "" : " + ") + t.what.substr(0, t.what.size() - suffix.size());
  }
  return n;
}

std::string evaluation_refusal(const EvaluationCount& n, double seconds) {
  const double limit = kMaxFlops / kFlopsPerCoreSecond;
  const double total = evaluation_seconds(n, seconds);
  if (total <= limit) return "";
  const std::string one =
      seconds < 1000 ? fmt::format("{:.3g} s", seconds) : duration_text(seconds);
  return fmt::format(
      "the objective's {:.0f} evaluations ({}) would take about {} on one thread: one took {} "
      "(timed before the runs), and more than {} of one core is refused for any "
      "experiment, as for the built-in objectives; use smaller sizes (runs, agents.count, "
      "rounds) or a faster program",
      n.evaluations, n.what, duration_text(total), one, duration_text(limit));
}

ResourceEstimate estimate_resources(const ExperimentSpec& s) {
  // Every count as a double: the products overflow any integer type at the bounds of the keys.
  const double runs = s.runs, rounds = s.rounds, agents = s.agents;
  const bool grid = grid_prior(s);
  const double n = grid ? static_cast<double>(s.objective_shape.points) : 0;
  const std::string r = key_value("runs", runs), t = key_value("rounds", rounds),
                    a = key_value("agents.count", agents);
  constexpr double kDouble = 8;

  ResourceEstimate e;
  // Memory. The GP prior on the grid, a copy and its Cholesky factor: 3 n^2 doubles.
  if (grid) {
    const std::string kn = key_value(s.objective_shape.size_key.c_str(), n);
    e.memory.push_back({3 * n * n * kDouble, kn + " (3 n^2 doubles: the GP prior on the grid)"});
    e.memory.push_back({2 * agents * n * kDouble, a + " x " + kn + " (every agent's function)"});
    // Drawing the functions of a run: the Cholesky of the grid prior, one sample per agent.
    e.work.push_back(
        {runs * (n * n * n / 3 + agents * n * n), kn + "^3 per run (the GP prior on the grid)"});
  }
  // The traces: regret and best f per (run, round, agent), and one run's trace text.
  e.memory.push_back({(runs * 2 * kDouble + 100) * (rounds + 1) * agents,
                      r + " x " + t + " x " + a + " (the traces)"});
  if (s.system) s.system->estimate(experiment_facts(s), e);
  return e;
}

}  // namespace fbosim::config
