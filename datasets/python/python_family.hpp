#pragma once
// The `python` family (issue 25): a Python function `module:function(x, agent, seed)` returning
// y or (y, f) evaluates each query, through pybind11's embedded interpreter (the plugin
// libfbosim_pyembed.so, loaded only when this family is used) or, from the Python module,
// through the running interpreter. x is a list of d floats in [0,1]^d; seed is drawn from the
// agent's noise stream of that round. Evaluations take the GIL: different agents' evaluations
// serialise on it (docs/OBJECTIVES.md: when to use `command` instead).
#include <memory>
#include <string>
#include <vector>

#include "datasets/objective_family.hpp"
#include "datasets/objective_family_entry.hpp"
#include "datasets/python/python_backend.hpp"

namespace fbosim::datasets::python {

struct PythonSpec {
  std::string callable;  ///< objective.callable: "pkg.module:function"
  int dimension = 1;     ///< objective.inputs
};

class PythonFamily final : public ObjectiveFamily {
 public:
  /// Loads the backend and the function; throws std::runtime_error naming objective.callable.
  explicit PythonFamily(const PythonSpec& spec);
  bool varies_by_run() const override { return false; }
  std::vector<std::shared_ptr<const Objective>> make(int agents,
                                                     const core::RngFactory& rng) const override;

 private:
  PythonSpec spec_;
  std::shared_ptr<const PythonCallable> fn_;
};

const schema::Group<PythonSpec>& python_keys();

/// The prefix of the names fbosim.run(objective=fn) gives a function that cannot be imported
/// again (a lambda, a closure, a function of __main__: python/fbosim/_objectives.py).
inline constexpr const char* kRegisteredPrefix = "fbosim._objectives:";
/// Why a run of these settings cannot be reproduced from its files alone (config.resolved.yaml
/// names a function that only the Python process that ran it knew), or "" when it can.
std::string unreproducible_reason(const schema::Options& settings);
void register_python_family(schema::Registry<ObjectiveFamilyEntry>& registry);

}  // namespace fbosim::datasets::python
