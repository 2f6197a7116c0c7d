// fbosim's Python module (issue #14): the privacy accountants and the experiment runner,
// bound with pybind11. The package python/fbosim/ wraps it (numpy arrays in, pandas DataFrames
// out); this file only converts arguments and errors. Built as fbosim/_core by CMake when
// Debian's pybind11-dev is installed.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/privacy/epsilon_series.hpp"
#include "algorithms/privacy/noise_calibration.hpp"
#include "algorithms/server/dp_mechanism.hpp"
#include "core/cancellation.hpp"
#include "core/eigen_blocking.hpp"
#include "core/thread_pool.hpp"
#include "datasets/partition/partitioner.hpp"
#include "datasets/python/embed/py_callable.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/user_program.hpp"
#include "sim/output/build_info.hpp"
#include "sim/run/experiment_runner.hpp"

namespace py = pybind11;
using namespace fbosim;

namespace {

// The `python` objective family's backend inside Python: the running interpreter resolves
// "module:function" (fbosim.run(objective=fn) registers fn in fbosim._objectives), instead of
// the embedding plugin that the fbosim command loads.
class ModuleBackend final : public datasets::python::PythonBackend {
 public:
  std::shared_ptr<const datasets::python::PythonCallable> load(const std::string& name) override {
    py::gil_scoped_acquire gil;
    return std::make_shared<const datasets::python::PyCallable>(
        datasets::python::resolve_callable(name));
  }
};

// Runs `work` (C++ only, no Python object) on a thread of its own while the caller's thread,
// the GIL released between looks, checks for Python's signals every 50 ms: Ctrl-C (Python's
// KeyboardInterrupt) asks the C++ loops to stop (core::request_cancellation, what SIGINT does
// to the fbosim command) and is raised once they have unwound, with what the run kept. `tick`
// (GIL held, Python's thread) is called at every look and once at the end: it draws progress.
template <typename Work, typename Tick>
auto interruptible(Work work, Tick tick) -> decltype(work()) {
  using Result = decltype(work());
  std::optional<Result> result;
  std::exception_ptr error;
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  std::thread worker([&] {
    try {
      result.emplace(work());
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
    done_cv.notify_all();
  });
  bool interrupted = false;
  // An exception of `tick` (Ctrl-C arriving while its Python code runs raises KeyboardInterrupt
  // there) stops the work as Ctrl-C does; it is raised once the worker has unwound (leaving
  // the loop with the worker running would end the process).
  std::optional<py::error_already_set> tick_error;
  for (;;) {
    {
      py::gil_scoped_release release;
      std::unique_lock<std::mutex> lock(mutex);
      done_cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; });
      if (done) break;
    }
    if (!interrupted && PyErr_CheckSignals() != 0) {  // KeyboardInterrupt (or another) is set
      interrupted = true;
      core::request_cancellation();
    }
    if (interrupted) continue;
    try {
      tick();
    } catch (py::error_already_set& e) {
      tick_error.emplace(std::move(e));
      interrupted = true;
      core::request_cancellation();
    }
  }
  worker.join();
  if (!interrupted && !error) tick();
  if (interrupted) {
    core::reset_cancellation();
    const bool keyboard = !tick_error || tick_error->matches(PyExc_KeyboardInterrupt);
    if (error && keyboard) {  // the stop's own message (what was kept) replaces a bare one
      try {
        std::rethrow_exception(error);
      } catch (const core::Cancelled& e) {
        PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
        throw py::error_already_set();
      } catch (...) {
      }
    }
    if (tick_error) throw *tick_error;
    throw py::error_already_set();
  }
  if (error) std::rethrow_exception(error);
  return std::move(*result);
}

template <typename Work>
auto interruptible(Work work) -> decltype(work()) {
  return interruptible(std::move(work), [] {});
}

// The package (python/fbosim/) checks every argument's type and range with messages naming
// the argument; these checks repeat the ranges so that _core itself never computes with a
// value it should refuse (None, not a sentinel, means "not given").
void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

// delta: the given one, or the rule's for N agents, as a run's (server.delta_rule) and
// `fbosim privacy --agents N [--delta-rule R]`: min(1e-5, 1/(10 N)), or N^-1.1 under `paper`.
double delta_of(std::optional<double> delta, std::optional<int> agents,
                const std::string& delta_rule) {
  const config::DeltaRule rule = config::kDeltaRuleNames.parse(delta_rule, "delta_rule");
  if (agents) require(*agents >= 1, fmt::format("agents must be >= 1, got {}", *agents));
  if (delta) {
    require(std::isfinite(*delta) && *delta > 0 && *delta < 1,
            fmt::format("delta must be in (0, 1), got {}", *delta));
    return *delta;
  }
  require(agents.has_value(), "give delta, or agents (delta = min(1e-5, 1/(10 agents)))");
  require(rule != config::DeltaRule::paper || *agents >= 2,
          fmt::format("delta_rule='paper' needs agents >= 2 (agents^-1.1 < 1), got {}", *agents));
  return config::rule_delta(rule, *agents);
}

// One round's event, built as a run builds it (server::DpMechanism::event): the messages'
// subsampled Gaussian, composed with adaptive clipping's count release when count_noise (its
// sigma_b) is given, as `fbosim privacy --count-noise` does.
privacy::DpEvent event(const std::string& sampling, double q, double z, std::optional<int> agents,
                       std::optional<double> count_noise) {
  require(std::isfinite(q) && q > 0 && q <= 1, fmt::format("q must be in (0, 1], got {}", q));
  require(std::isfinite(z) && z > 0, fmt::format("z must be finite and > 0, got {}", z));
  server::DpMechanism::Options o;
  o.sampling = privacy::parse_sampling(sampling);
  o.sampling_rate = q;
  o.noise_multiplier = z;
  if (count_noise) {
    require(std::isfinite(*count_noise) && *count_noise > 0,
            fmt::format("count_noise must be finite and > 0, got {}", *count_noise));
    o.clipping = server::Clipping::adaptive;
    o.clip_count_noise = *count_noise;
  }
  return server::DpMechanism::event(o, static_cast<std::size_t>(agents.value_or(0)));
}

// (epsilon, order) for every step count, from one composition pass.
std::pair<std::vector<double>, std::vector<double>> epsilon(
    double q, double z, const std::vector<int>& steps, std::optional<double> delta,
    std::optional<int> agents, const std::string& accountant, const std::string& sampling,
    std::optional<double> count_noise, const std::string& delta_rule) {
  const double d = delta_of(delta, agents, delta_rule);
  const privacy::DpEvent e = event(sampling, q, z, agents, count_noise);
  const auto r = interruptible([&] { return privacy::epsilon_series(accountant, e, steps, d); });
  std::pair<std::vector<double>, std::vector<double>> out;
  for (const auto& e : r) {
    out.first.push_back(e.epsilon);
    out.second.push_back(e.order);
  }
  return out;
}

double calibrate(double target, double q, int steps, std::optional<double> delta,
                 std::optional<int> agents, const std::string& accountant,
                 const std::string& sampling, std::optional<double> count_noise,
                 const std::string& delta_rule) {
  require(std::isfinite(target) && target > 0,
          fmt::format("target epsilon must be finite and > 0, got {}", target));
  require(steps >= 1, fmt::format("steps must be >= 1 to calibrate, got {}", steps));
  const double d = delta_of(delta, agents, delta_rule);
  event(sampling, q, 1.0, agents, count_noise);  // checks q, sampling, agents, count_noise first
  const auto event_of = [&](double z) { return event(sampling, q, z, agents, count_noise); };
  return interruptible([&] {
    return privacy::calibrate_noise(accountant, event_of, steps, d, target).noise_multiplier;
  });
}

// Runs a config into out_dir (as `fbosim run --quiet --out out_dir`); returns the summary's
// headline numbers. The GIL is released while the runs go; Ctrl-C stops them (interruptible).
// `progress` (None, or a callable(done, total, runs)) is called from Python's thread whenever
// the count of finished rounds changed: done of total = runs x (rounds + 1) rounds (round 0 is
// the initial points), a reused run counting whole.
py::dict run_config(const std::string& config, const std::vector<std::string>& overrides,
                    std::optional<int> runs, std::optional<std::uint64_t> seed,
                    std::optional<int> threads, const std::string& out_dir, bool force,
                    const py::object& progress, bool allow_exec) {
  constexpr int kMaxThreads = 4096;  // as `fbosim run --threads`
  if (runs) require(*runs >= 1, fmt::format("runs must be >= 1, got {}", *runs));
  if (threads)
    require(*threads >= 1 && *threads <= kMaxThreads,
            fmt::format("threads must be in [1, {}], got {}", kMaxThreads, *threads));
  require(!out_dir.empty(), "out_dir must be a directory name, got an empty string");
  std::vector<std::string> sets = overrides;
  if (runs) sets.push_back(fmt::format("runs={}", *runs));
  if (seed) sets.push_back(fmt::format("seed={}", *seed));
  const config::LoadedConfig cfg = config::load_config(config, sets);
  // A config is code: a program or module named by the file runs only with allow_exec=True or
  // FBOSIM_ALLOW_EXEC=1, as `fbosim run` asks for --allow-exec (sim/config/user_program.hpp).
  if (const auto program = config::objective_program(cfg.spec, overrides))
    config::check_user_programs({*program}, config, allow_exec);
  run::RunOptions options;
  options.threads = threads ? *threads : core::ThreadPool::hardware_threads();
  options.out_dir = out_dir;
  options.progress = false;
  options.force = force;
  const long long per_run = cfg.spec.rounds + 1LL;
  const long long total = cfg.spec.runs * per_run;
  std::atomic<long long> done{0};
  long long shown = -1;
  if (!progress.is_none())
    options.on_round = [&done, per_run](int run, int round, int) {
      done.store(run * per_run + round + 1, std::memory_order_relaxed);
    };
  const auto tick = [&] {
    const long long now = done.load(std::memory_order_relaxed);
    if (progress.is_none() || now == shown) return;
    shown = now;
    progress(now, total, cfg.spec.runs);
  };
  const run::ExperimentSummary s =
      interruptible([&] { return run::run_experiment(cfg.spec, cfg.resolved, options); }, tick);
  py::dict d;
  d["name"] = cfg.spec.name;
  d["out_dir"] = s.out_dir;
  d["runs"] = s.runs;
  d["rounds"] = s.rounds;
  d["agents"] = s.agents;
  d["seconds"] = s.seconds;
  d["resumed_runs"] = s.resumed_runs;
  d["epsilon"] = cfg.spec.is_private() ? py::cast(s.epsilon) : py::none();
  d["delta"] = cfg.spec.is_private() ? py::cast(cfg.spec.delta()) : py::none();
  // The first round whose messages the server did not aggregate (server.budget, server.stop_p).
  d["server_stop"] = s.server_stop ? py::cast(*s.server_stop) : py::none();
  return d;
}

// The data partitioner (issue 29); its std::invalid_argument is a ValueError, a Dirichlet draw
// that leaves an agent too few rows a RuntimeError (pybind11's translations).
std::vector<std::vector<std::int64_t>> partition(const std::vector<std::int64_t>& labels,
                                                 int agents, const std::string& scheme,
                                                 double alpha, int shards, int min_size,
                                                 std::uint64_t seed) {
  using namespace datasets::partition;
  const auto s = kSchemeNames.find(scheme);
  if (!s) throw std::invalid_argument("partition: unknown scheme '" + scheme + "'");
  PartitionOptions o;
  o.scheme = *s;
  o.agents = agents;
  o.alpha = alpha;
  o.shards_per_agent = shards;
  o.min_size = min_size;
  o.seed = seed;
  return datasets::partition::partition(labels, o);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "fbosim's C++ core (use the fbosim package, not this module)";
  core::pin_eigen_blocking();  // the same bytes as the command line, on every machine
  static ModuleBackend backend;
  datasets::python::set_python_backend(&backend);
  // Configuration errors are ValueErrors naming the file, the key and the value.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const config::ConfigError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.def("epsilon", &epsilon, py::arg("q"), py::arg("z"), py::arg("steps"), py::arg("delta"),
        py::arg("agents"), py::arg("accountant"), py::arg("sampling"),
        py::arg("count_noise") = py::none(), py::arg("delta_rule") = "default");
  m.def("calibrate", &calibrate, py::arg("target"), py::arg("q"), py::arg("steps"),
        py::arg("delta"), py::arg("agents"), py::arg("accountant"), py::arg("sampling"),
        py::arg("count_noise") = py::none(), py::arg("delta_rule") = "default");
  m.def("run", &run_config, py::arg("config"), py::arg("overrides"), py::arg("runs"),
        py::arg("seed"), py::arg("threads"), py::arg("out_dir"), py::arg("force"),
        py::arg("progress") = py::none(), py::arg("allow_exec") = false);
  m.def("accountants", &privacy::accountant_names);
  m.def("partition", &partition, py::arg("labels"), py::arg("agents"), py::arg("scheme"),
        py::arg("alpha"), py::arg("shards"), py::arg("min_size"), py::arg("seed"));
  m.attr("version") = output::version_line();
}
