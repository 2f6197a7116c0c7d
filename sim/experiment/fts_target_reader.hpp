#pragma once
// Reads the keys of FTS's target-agent setting (fts_target) and of its RGPE / TAF baselines
// (rgpe, taf) into an FtsTargetSystem (docs/CONFIG.md, "FTS with a target agent").
#include <memory>

#include "algorithms/protocol/algorithm.hpp"
#include "sim/experiment/config_reader.hpp"
#include "sim/experiment/experiment_spec.hpp"
#include "sim/experiment/resource_estimate.hpp"

namespace fbosim::sim {

/// Its memory and work for config validation.
void estimate_fts_target(const ExperimentSpec& spec, ResourceEstimate& e);
std::shared_ptr<const protocol::Algorithm> read_fts_target(ConfigReader& r,
                                                           const ExperimentSpec& spec);

}  // namespace fbosim::sim
