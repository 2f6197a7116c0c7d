// The embedding plugin libfbosim_pyembed.so (loaded by python_backend() with dlopen): starts
// pybind11's embedded interpreter on first use, without Python's signal handlers (fbosim's own
// Ctrl-C handling stays in place), with the working directory first on sys.path (as `python3
// -c`), writing no __pycache__ (nothing is left on disk but the outputs), and releases the
// GIL for the engine's threads. The interpreter is never finalised: the process ends with it.
#include <pybind11/embed.h>

#include <mutex>

#include "datasets/python/embed/py_callable.hpp"

namespace fbosim::datasets::python {

namespace {

class EmbeddedBackend final : public PythonBackend {
 public:
  std::shared_ptr<const PythonCallable> load(const std::string& callable) override {
    std::call_once(started_, [] {
      pybind11::initialize_interpreter(/*init_signal_handlers=*/false);
      const pybind11::module_ sys = pybind11::module_::import("sys");
      sys.attr("path").attr("insert")(0, pybind11::module_::import("os").attr("getcwd")());
      sys.attr("dont_write_bytecode") = true;  // no __pycache__ left in the user's folders
      // pybind11's internals (its thread-state key) are made here, with the GIL, before any
      // other thread's gil_scoped_acquire: made lazily by two threads at once (two experiments
      // of a sweep starting together) they were corrupt and fbosim crashed.
      (void)pybind11::detail::get_internals();
      PyEval_SaveThread();                     // the GIL is taken per call from now on
    });
    pybind11::gil_scoped_acquire gil;
    return std::make_shared<const PyCallable>(resolve_callable(callable));
  }

 private:
  std::once_flag started_;
};

}  // namespace

}  // namespace fbosim::datasets::python

extern "C" __attribute__((visibility("default"))) fbosim::datasets::python::PythonBackend*
fbosim_python_backend() {
  static fbosim::datasets::python::EmbeddedBackend backend;
  return &backend;
}
