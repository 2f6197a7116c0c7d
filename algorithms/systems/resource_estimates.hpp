#pragma once
// Each system's resource estimate (AlgorithmEntry::estimate; resource_estimates.cpp). Each
// throws std::bad_cast when `algorithm` is not its system.
#include "algorithms/protocol/algorithm_entry.hpp"
#include "algorithms/protocol/resource_estimate.hpp"

namespace fbosim::systems {

/// The DP-FTS-DE family: the agents' posteriors and their local TS steps.
void estimate_fts_de(const protocol::Algorithm& algorithm, const protocol::ExperimentFacts& facts,
                     protocol::ResourceEstimate& e);
/// fts_target, rgpe, taf: the sources' posteriors, histories and the target's steps; with
/// `ranking_losses`, RGPE's ranking-loss samples.
void estimate_fts_target(const protocol::Algorithm& algorithm,
                         const protocol::ExperimentFacts& facts, bool ranking_losses,
                         protocol::ResourceEstimate& e);
/// po_gp_ucb, gp_ucb: Z and the posterior on the curator's points, the GP-UCB steps.
void estimate_po_gp_ucb(const protocol::Algorithm& algorithm,
                        const protocol::ExperimentFacts& facts, protocol::ResourceEstimate& e);
/// dp_bo: the posteriors on the candidates, the GP-UCB steps and the information-gain bound.
void estimate_dp_bo(const protocol::Algorithm& algorithm, const protocol::ExperimentFacts& facts,
                    protocol::ResourceEstimate& e);

}  // namespace fbosim::systems
