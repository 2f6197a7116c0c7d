#pragma once
// Reads the keys of FTS's target-agent setting (fts_target) and of its RGPE / TAF baselines
// (rgpe, taf) into an FtsTargetSystem (docs/CONFIG.md, "FTS with a target agent").
#include <memory>

#include "algorithms/protocol/algorithm.hpp"
#include "sim/config/config_reader.hpp"
#include "sim/config/experiment_spec.hpp"
#include "sim/config/resource_estimate.hpp"

namespace fbosim::config {

/// Its memory and work for config validation.
void estimate_fts_target(const ExperimentSpec& spec, ResourceEstimate& e);
/// On the synthetic families the target (agent 0) sees the base function f itself and the
/// sources f + perturbation (FTS sec. 5.1): objective.synthetic.unperturbed is set to 1.
std::shared_ptr<const protocol::Algorithm> read_fts_target(ConfigReader& r, ExperimentSpec& spec);

}  // namespace fbosim::config
