#include "datasets/python/python_backend.hpp"

#include <dlfcn.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <system_error>

namespace fbosim::datasets::python {

namespace {
std::atomic<PythonBackend*> installed{nullptr};
}  // namespace

void set_python_backend(PythonBackend* backend) { installed.store(backend); }

std::vector<std::string> plugin_candidates(const std::string& built, const std::string& program) {
  std::vector<std::string> out{built};
  if (!program.empty()) {
    const auto name = std::filesystem::path(built).filename();
    out.push_back((std::filesystem::path(program).parent_path() / ".." / "_libs" / name)
                      .lexically_normal()
                      .string());
  }
  return out;
}

// dlopen rather than a link: libpython (and the interpreter's start) costs every fbosim
// process otherwise, `fbosim config` included (docs/OBJECTIVES.md gives the measurements).
PythonBackend& python_backend() {
  if (PythonBackend* b = installed.load()) return *b;
#ifdef FBOSIM_PYTHON_PLUGIN_PATH
  static std::mutex mutex;
  static PythonBackend* plugin = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (plugin) return *plugin;
  std::error_code ec;
  const auto program = std::filesystem::read_symlink("/proc/self/exe", ec);
  const auto candidates =
      plugin_candidates(FBOSIM_PYTHON_PLUGIN_PATH, ec ? std::string() : program.string());
  std::string path = candidates.front();  // named in the error when none exists
  for (const auto& c : candidates)
    if (std::filesystem::exists(c, ec)) {
      path = c;
      break;
    }
  // RTLD_GLOBAL: C extension modules that the user's code imports resolve libpython's symbols
  // through the global scope.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    std::string tried;
    for (const auto& c : candidates) tried += (tried.empty() ? "" : ", ") + c;
    throw std::runtime_error("objective.family python: cannot load the plugin " + path + ": " +
                             dlerror() + " (looked for " + tried + ")");
  }
  const auto entry = reinterpret_cast<BackendEntry>(dlsym(handle, kBackendSymbol));
  if (!entry)
    throw std::runtime_error("objective.family python: the plugin " + path + " has no " +
                             kBackendSymbol);
  plugin = entry();
  return *plugin;
#else
  throw std::runtime_error(
      "objective.family python: this fbosim was built without the Python plugin (install "
      "Debian's pybind11-dev and python3-dev and rebuild), or use objective.family command");
#endif
}

}  // namespace fbosim::datasets::python
