#pragma once
// A PythonCallable over a Python function (pybind11), shared by the embedding plugin and the
// Python module: fn(x, agent, seed) with x a list of floats, returning a number (y = f) or a
// pair (y, f). The GIL is taken for each call: evaluations of different agents serialise on it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "datasets/python/python_backend.hpp"

namespace fbosim::datasets::python {

// os._exit (posix._exit) ends the process at once, without an exception: called by a user's
// function (or at its module's import) it ended fbosim with the status it chose, 0 included,
// and no outputs (issue 39). While fbosim runs the user's code, it raises RuntimeError
// instead; the first guard in replaces it, the last one out restores it (a call that releases
// the GIL lets another agent's call in: a count, under the GIL, not a saved copy per call).
// Hold the GIL to make or end one.
class ExitGuard {
 public:
  ExitGuard() {
    if (depth()++ > 0) return;
    for (const char* name : {"os", "posix"}) {
      pybind11::module_ m = pybind11::module_::import(name);
      saved().emplace_back(m, m.attr("_exit"));
      m.attr("_exit") = raiser();
    }
  }
  ~ExitGuard() {
    if (--depth() > 0) return;
    for (auto& [m, fn] : saved()) {
      if (PyObject_SetAttrString(m.ptr(), "_exit", fn.ptr()) != 0) PyErr_Clear();
    }
    saved().clear();
  }
  ExitGuard(const ExitGuard&) = delete;
  ExitGuard& operator=(const ExitGuard&) = delete;

 private:
  static int& depth() {
    static int d = 0;
    return d;
  }
  // Leaked: Python objects must not be released after the interpreter (at process exit).
  static std::vector<std::pair<pybind11::object, pybind11::object>>& saved() {
    static auto* s = new std::vector<std::pair<pybind11::object, pybind11::object>>;
    return *s;
  }
  static pybind11::object& raiser() {
    static auto* r = new pybind11::object(pybind11::cpp_function([](pybind11::object status) {
      throw std::runtime_error("called os._exit(" + pybind11::repr(status).cast<std::string>() +
                               "), which would end fbosim at once, without its outputs (return "
                               "a value or raise an exception)");
    }));
    return *r;
  }
};

class PyCallable final : public PythonCallable {
 public:
  explicit PyCallable(pybind11::object fn) : fn_(new pybind11::object(std::move(fn))) {}
  // The function is released only with the GIL held; at process exit the interpreter may be
  // gone (the embedded one is never finalised), so it is then left to the OS.
  ~PyCallable() override {
    if (Py_IsInitialized()) {
      pybind11::gil_scoped_acquire gil;
      delete fn_;
    }
  }

  CallResult call(const Eigen::VectorXd& x, int agent, std::uint64_t seed) const override {
    pybind11::gil_scoped_acquire gil;
    const ExitGuard no_exit;
    try {
      pybind11::list xs(x.size());
      for (Eigen::Index i = 0; i < x.size(); ++i)
        PyList_SET_ITEM(xs.ptr(), i, PyFloat_FromDouble(x[i]));
      const pybind11::object r = (*fn_)(xs, agent, seed);
      CallResult out;
      if (number(r, out.y)) {
        out.f = out.y;
      } else if ((pybind11::isinstance<pybind11::tuple>(r) ||
                  pybind11::isinstance<pybind11::list>(r)) &&
                 pybind11::len(r) == 2 && number(r[pybind11::int_(0)], out.y) &&
                 number(r[pybind11::int_(1)], out.f)) {
      } else {
        throw std::runtime_error("returned " + describe(r) +
                                 ", expected a number y or a pair (y, f) of numbers");
      }
      if (!std::isfinite(out.y) || !std::isfinite(out.f))
        throw std::runtime_error("returned a non-finite value " + describe(r));
      return out;
    } catch (pybind11::error_already_set& e) {
      if (e.matches(PyExc_SystemExit))
        throw std::runtime_error(
            "called sys.exit, which would end fbosim without its outputs (return a value or "
            "raise an exception); raised " +
            std::string(e.what()));
      throw std::runtime_error("raised " + std::string(e.what()));
    }
  }

 private:
  // A float or an int (bool excluded: True is no objective value); numpy scalars count (they
  // implement __float__ and are not bool).
  static bool number(const pybind11::handle& h, double& out) {
    if (PyBool_Check(h.ptr())) return false;
    if (PyFloat_Check(h.ptr()) || PyLong_Check(h.ptr()) ||
        (PyNumber_Check(h.ptr()) && PyObject_HasAttrString(h.ptr(), "__float__") &&
         !PyObject_HasAttrString(h.ptr(), "__len__"))) {
      out = PyFloat_AsDouble(h.ptr());
      if (out == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
      }
      return true;
    }
    return false;
  }
  static std::string describe(const pybind11::handle& h) {
    std::string text = pybind11::repr(h).cast<std::string>();
    if (text.size() > 80) text = text.substr(0, 77) + "...";
    return text + " (" + std::string(Py_TYPE(h.ptr())->tp_name) + ")";
  }
  pybind11::object* fn_;
};

/// "pkg.mod:fn" -> the function (importing pkg.mod); throws std::runtime_error. Call with the
/// GIL held.
inline pybind11::object resolve_callable(const std::string& spec) {
  const auto colon = spec.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size())
    throw std::runtime_error("expected 'module:function' (e.g. 'mypkg.objectives:loss'), got '" +
                             spec + "'");
  try {
    const ExitGuard no_exit;  // the module's own code runs at its import
    pybind11::object obj = pybind11::module_::import(spec.substr(0, colon).c_str());
    std::string rest = spec.substr(colon + 1);
    for (std::size_t dot; (dot = rest.find('.')) != std::string::npos;) {
      obj = obj.attr(rest.substr(0, dot).c_str());
      rest = rest.substr(dot + 1);
    }
    obj = obj.attr(rest.c_str());
    if (!PyCallable_Check(obj.ptr())) throw std::runtime_error("'" + spec + "' is not callable");
    return obj;
  } catch (pybind11::error_already_set& e) {
    throw std::runtime_error("cannot load '" + spec + "': " + e.what());
  }
}

}  // namespace fbosim::datasets::python
