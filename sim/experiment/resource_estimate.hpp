#pragma once
// A rough upper estimate of the memory and floating-point work of an experiment, from its
// spec alone, so that an absurd size (rounds: 1e9, rff.features: 1e9, ...) is rejected with the
// keys named before anything is allocated, instead of a bad_alloc or a run of years. The
// estimate counts the dominant terms only (dense matrices and their factorisations); its limits
// are far above every experiment of the papers.
#include <string>
#include <vector>

#include "sim/experiment/experiment_spec.hpp"

namespace fbosim::sim {

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

/// Memory over this many bytes is rejected (64 GiB).
inline constexpr double kMaxBytes = 64.0 * (1ull << 30);
/// Work over this many floating-point operations is rejected (months of one core).
inline constexpr double kMaxFlops = 1e17;

ResourceEstimate estimate_resources(const ExperimentSpec& spec);

/// "key = value" for the terms' descriptions.
std::string key_value(const char* key, double value);
/// The terms of `agent_steps` agent-rounds (local TS steps, posterior samples on `features`
/// shared features, acquisition, fits), for agents ending with `observations` observations:
/// the algorithms' estimates share them.
void estimate_agent_steps(const ExperimentSpec& spec, double agent_steps, double observations,
                          double features, const agents::LocalTsOptions& local,
                          ResourceEstimate& e);

}  // namespace fbosim::sim
