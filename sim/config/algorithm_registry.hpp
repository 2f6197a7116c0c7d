#pragma once
// The one registry of selectable algorithms (design note "protocols"): each `algorithm` name
// maps to a config reader here in sim/ (it reads the algorithm's own keys) that constructs the
// algorithm's builder from algorithms/ (which never sees YAML). Adding an algorithm is one line
// in algorithm_registry.cpp (docs/ARCHITECTURE.md, "Adding an algorithm").
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/protocol/algorithm.hpp"
#include "sim/config/config_reader.hpp"
#include "sim/config/experiment_spec.hpp"
#include "sim/config/resource_estimate.hpp"

namespace fbosim::config {

struct AlgorithmEntry {
  std::string name;     ///< the `algorithm` value
  std::string summary;  ///< one line: the system and its paper
  /// Reads the algorithm's keys; spec holds the common keys read so far (a reader may refine
  /// the objective's settings its algorithm defines, e.g. FTS's target sees f itself).
  std::function<std::shared_ptr<const protocol::Algorithm>(ConfigReader&, ExperimentSpec&)> read;
  /// Adds the algorithm's memory and work to the estimate of config validation.
  std::function<void(const ExperimentSpec&, ResourceEstimate&)> estimate;
  /// The keys whose values set its privacy events, the likeliest culprit of a non-finite epsilon
  /// first (named with their values by check_run_epsilon's message).
  std::vector<std::string> privacy_keys = {};
};

/// Every algorithm, the DP-FTS-DE family first (the default is dp_fts_de).
const std::vector<AlgorithmEntry>& algorithm_registry();
/// Their names, in registry order.
std::vector<std::string> algorithm_names();

}  // namespace fbosim::config
