#pragma once
// A rough upper estimate of an experiment's memory and floating-point work (the dominant terms
// only: dense matrices and their factorisations), each term with the keys and values that set
// it. Each algorithm adds its own terms (Algorithm::estimate); the config
// reader (sim/config/resource_estimate.hpp) adds the experiment's and the family's and refuses
// an absurd size with the keys of the largest term, before anything is allocated.
#include <string>
#include <vector>

namespace fbosim::protocol {

/// One term of the estimate: its amount and the keys (with their values) that set it.
struct ResourceTerm {
  double amount = 0;
  std::string what;  ///< e.g. "agents.count = 200 x rff.features = 50 (...)"
};

struct ResourceEstimate {
  std::vector<ResourceTerm> memory;  ///< bytes held at once
  std::vector<ResourceTerm> work;    ///< floating-point operations of the whole experiment
  double bytes() const;
  double flops() const;
  /// The largest term of `terms`.
  static const ResourceTerm& largest(const std::vector<ResourceTerm>& terms);
};

/// "key = value" for the terms' descriptions.
std::string key_value(const char* key, double value);

struct ExperimentFacts;
/// The objective's work: `evaluations` (counted by the algorithm: `count` names the keys) times
/// the family's work per evaluation, when the family declares one (the CNN trainings of emnist).
void add_evaluation_work(const ExperimentFacts& s, double evaluations, const std::string& count,
                         ResourceEstimate& e);

}  // namespace fbosim::protocol
