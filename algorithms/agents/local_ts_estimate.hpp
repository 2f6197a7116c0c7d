#pragma once
// The memory and work of `agent_steps` local Thompson-sampling steps (posterior samples on
// `features` shared features, the own TS step, the acquisition, the hyperparameter fits) for
// agents ending with `observations` observations: the part of the resource estimate that the
// algorithms whose agents run LocalThompson share (AlgorithmEntry::estimate).
#include "algorithms/agents/local_thompson.hpp"
#include "algorithms/protocol/algorithm_entry.hpp"
#include "algorithms/protocol/resource_estimate.hpp"

namespace fbosim::agents {

void estimate_local_ts_steps(const protocol::ExperimentFacts& facts, double agent_steps,
                             double observations, double features, const LocalTsOptions& local,
                             protocol::ResourceEstimate& e);

}  // namespace fbosim::agents
