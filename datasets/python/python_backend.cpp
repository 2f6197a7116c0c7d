#include "datasets/python/python_backend.hpp"

#include <dlfcn.h>

#include <atomic>
#include <mutex>
#include <stdexcept>

namespace fbosim::datasets::python {

namespace {
std::atomic<PythonBackend*> installed{nullptr};
}  // namespace

void set_python_backend(PythonBackend* backend) { installed.store(backend); }

// dlopen rather than a link: libpython (and the interpreter's start) costs every fbosim
// process otherwise, `fbosim config` included (docs/OBJECTIVES.md gives the measurements).
PythonBackend& python_backend() {
  if (PythonBackend* b = installed.load()) return *b;
#ifdef FBOSIM_PYTHON_PLUGIN_PATH
  static std::mutex mutex;
  static PythonBackend* plugin = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (plugin) return *plugin;
  // RTLD_GLOBAL: C extension modules that the user's code imports resolve libpython's symbols
  // through the global scope.
  void* handle = dlopen(FBOSIM_PYTHON_PLUGIN_PATH, RTLD_NOW | RTLD_GLOBAL);
  if (!handle)
    throw std::runtime_error(std::string("objective.family python: cannot load the plugin ") +
                             FBOSIM_PYTHON_PLUGIN_PATH + ": " + dlerror());
  const auto entry = reinterpret_cast<BackendEntry>(dlsym(handle, kBackendSymbol));
  if (!entry)
    throw std::runtime_error(std::string("objective.family python: the plugin ") +
                             FBOSIM_PYTHON_PLUGIN_PATH + " has no " + kBackendSymbol);
  plugin = entry();
  return *plugin;
#else
  throw std::runtime_error(
      "objective.family python: this fbosim was built without the Python plugin (install "
      "Debian's pybind11-dev and python3-dev and rebuild), or use objective.family command");
#endif
}

}  // namespace fbosim::datasets::python
