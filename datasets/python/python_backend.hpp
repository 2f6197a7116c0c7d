#pragma once
// How the `python` family reaches an interpreter without linking libpython into fbosim: a
// backend resolves "module:function" to a callable. The fbosim command loads the embedding
// plugin libfbosim_pyembed.so with dlopen on first use (pybind11's embedded interpreter); the
// Python module (python/core_module.cpp) installs its own backend over the running interpreter.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace fbosim::datasets::python {

/// y and f of one call (f = y when the function returns a single number).
struct CallResult {
  double y = 0, f = 0;
};

class PythonCallable {
 public:
  virtual ~PythonCallable() = default;
  /// fn(x, agent, seed) with the GIL held for the call; a Python exception or a result that is
  /// not a number or a pair of numbers throws std::runtime_error with the reason.
  virtual CallResult call(const Eigen::VectorXd& x, int agent, std::uint64_t seed) const = 0;
};

class PythonBackend {
 public:
  virtual ~PythonBackend() = default;
  /// Imports the module and looks the function up; throws std::runtime_error with the reason.
  virtual std::shared_ptr<const PythonCallable> load(const std::string& callable) = 0;
};

/// Installs the backend the family uses (the Python module's, for the process's lifetime);
/// null removes it.
void set_python_backend(PythonBackend* backend);
/// The installed backend, else the plugin's (loaded once; throws std::runtime_error when the
/// plugin is not built or cannot be loaded).
PythonBackend& python_backend();

/// Where the plugin is looked for, in order; the first that exists is loaded. `built`: the
/// build tree's (compiled in); `program`: the running program's path (/proc/self/exe), whose
/// ../_libs/libfbosim_pyembed.so is the plugin an installed Python package carries beside its
/// fbosim/bin/fbosim (setup.py; docs/PYTHON.md, "A wheel"): a wheel or a container has no
/// build tree. An empty `program` gives the build tree's alone.
std::vector<std::string> plugin_candidates(const std::string& built, const std::string& program);

/// The plugin's entry point: a C function returning its backend (a static object).
extern "C" using BackendEntry = PythonBackend * (*)();
inline constexpr const char* kBackendSymbol = "fbosim_python_backend";

}  // namespace fbosim::datasets::python
