// fbosim's Python module (issue #14): the privacy accountants and the experiment runner,
// bound with pybind11. The package python/fbosim/ wraps it (numpy arrays in, pandas DataFrames
// out); this file only converts arguments and errors. Built as fbosim/_core by CMake when
// Debian's pybind11-dev is installed.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "algorithms/privacy/epsilon_series.hpp"
#include "algorithms/privacy/noise_calibration.hpp"
#include "sim/core/cancellation.hpp"
#include "sim/core/eigen_blocking.hpp"
#include "sim/core/thread_pool.hpp"
#include "sim/experiment/build_info.hpp"
#include "sim/experiment/config_loader.hpp"
#include "sim/experiment/experiment_runner.hpp"

namespace py = pybind11;
using namespace fbosim;

namespace {

// Runs `work` (C++ only, no Python object) on a thread of its own while the caller's thread,
// the GIL released between looks, checks for Python's signals every 50 ms: Ctrl-C (Python's
// KeyboardInterrupt) asks the C++ loops to stop (core::request_cancellation, what SIGINT does
// to the fbosim command) and is raised once they have unwound, with what the run kept.
template <typename Work>
auto interruptible(Work work) -> decltype(work()) {
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
  }
  worker.join();
  if (interrupted) {
    core::reset_cancellation();
    if (error) {  // the stop's own message (what was kept) replaces the bare KeyboardInterrupt
      try {
        std::rethrow_exception(error);
      } catch (const core::Cancelled& e) {
        PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
      } catch (...) {
      }
    }
    throw py::error_already_set();
  }
  if (error) std::rethrow_exception(error);
  return std::move(*result);
}

// delta: the given one, or N^-1.1 as the configs and `fbosim privacy --agents` use.
double delta_of(double delta, int agents) {
  if (delta > 0) {
    if (!(delta < 1))
      throw std::invalid_argument(fmt::format("delta must be in (0, 1), got {}", delta));
    return delta;
  }
  if (agents < 2) throw std::invalid_argument("give delta, or agents >= 2 (delta = agents^-1.1)");
  return std::pow(static_cast<double>(agents), -1.1);
}

privacy::DpEvent event(const std::string& sampling, double q, double z, int agents) {
  return privacy::sampled_gaussian(privacy::parse_sampling(sampling), q, z, agents);
}

// (epsilon, order) for every step count, from one composition pass.
std::pair<std::vector<double>, std::vector<double>> epsilon(double q, double z,
                                                            const std::vector<int>& steps,
                                                            double delta, int agents,
                                                            const std::string& accountant,
                                                            const std::string& sampling) {
  if (!(q > 0 && q <= 1))
    throw std::invalid_argument(fmt::format("q must be in (0, 1], got {}", q));
  if (!(z > 0 && std::isfinite(z)))
    throw std::invalid_argument(fmt::format("z must be finite and > 0, got {}", z));
  const privacy::DpEvent e = event(sampling, q, z, agents);
  const double d = delta_of(delta, agents);
  const auto r = interruptible([&] { return privacy::epsilon_series(accountant, e, steps, d); });
  std::pair<std::vector<double>, std::vector<double>> out;
  for (const auto& e : r) {
    out.first.push_back(e.epsilon);
    out.second.push_back(e.order);
  }
  return out;
}

double calibrate(double target, double q, int steps, double delta, int agents,
                 const std::string& accountant, const std::string& sampling) {
  if (!(target > 0 && std::isfinite(target)))
    throw std::invalid_argument(
        fmt::format("target epsilon must be finite and > 0, got {}", target));
  const auto event_of = [&](double z) { return event(sampling, q, z, agents); };
  const double d = delta_of(delta, agents);
  return interruptible([&] {
    return privacy::calibrate_noise(accountant, event_of, steps, d, target).noise_multiplier;
  });
}

// Runs a config into out_dir (as `fbosim run --quiet --out out_dir`); returns the summary's
// headline numbers. The GIL is released while the runs go; Ctrl-C stops them (interruptible).
py::dict run(const std::string& config, const std::vector<std::string>& overrides, int runs,
             long long seed, int threads, const std::string& out_dir, bool force) {
  std::vector<std::string> sets = overrides;
  if (runs > 0) sets.push_back(fmt::format("runs={}", runs));
  if (seed >= 0) sets.push_back(fmt::format("seed={}", seed));
  const sim::LoadedConfig cfg = sim::load_config(config, sets);
  sim::RunOptions options;
  options.threads = threads > 0 ? threads : core::ThreadPool::hardware_threads();
  options.out_dir = out_dir;
  options.progress = false;
  options.force = force;
  const sim::ExperimentSummary s =
      interruptible([&] { return sim::run_experiment(cfg.spec, cfg.resolved, options); });
  py::dict d;
  d["name"] = cfg.spec.name;
  d["out_dir"] = s.out_dir;
  d["runs"] = s.runs;
  d["rounds"] = s.rounds;
  d["agents"] = s.agents;
  d["seconds"] = s.seconds;
  d["epsilon"] = cfg.spec.is_private() ? py::cast(s.epsilon) : py::none();
  d["delta"] = cfg.spec.is_private() ? py::cast(cfg.spec.delta()) : py::none();
  return d;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "fbosim's C++ core (use the fbosim package, not this module)";
  core::pin_eigen_blocking();  // the same bytes as the command line, on every machine
  // Configuration errors are ValueErrors naming the file, the key and the value.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const sim::ConfigError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.def("epsilon", &epsilon, py::arg("q"), py::arg("z"), py::arg("steps"), py::arg("delta"),
        py::arg("agents"), py::arg("accountant"), py::arg("sampling"));
  m.def("calibrate", &calibrate, py::arg("target"), py::arg("q"), py::arg("steps"),
        py::arg("delta"), py::arg("agents"), py::arg("accountant"), py::arg("sampling"));
  m.def("run", &run, py::arg("config"), py::arg("overrides"), py::arg("runs"), py::arg("seed"),
        py::arg("threads"), py::arg("out_dir"), py::arg("force"));
  m.def("accountants", &privacy::accountant_names);
  m.attr("version") = sim::version_line();
}
