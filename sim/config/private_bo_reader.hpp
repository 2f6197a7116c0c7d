#pragma once
// Reads the keys of the private GP-UCB systems of issue #12 (docs/CONFIG.md, "PO-GP-UCB" and
// "DP release of BO results"):
//   po_gp_ucb, gp_ucb   PoGpUcbSystem (Kharkovskii, Dai & Low 2020): curator.*, po.variant,
//                       ucb.delta, gp.*, agents.init_points; gp_ucb reads the same keys (so
//                       one config holds both curves) and releases nothing
//   dp_bo               DpBoSystem (Kusner et al. 2015; Papernot & Steinke 2022):
//                       candidates.per_axis, release.*, gp.*, agents.init_points
// Each sets the defaults of the accounting its releases need (server.accountant: basic for
// (epsilon, delta) events, rdp for Papernot & Steinke; server.delta: the sum of the deltas
// released, or release.delta), which the config may override.
#include <memory>

#include "algorithms/protocol/algorithm.hpp"
#include "sim/config/config_reader.hpp"
#include "sim/config/experiment_spec.hpp"
#include "sim/config/resource_estimate.hpp"

namespace fbosim::config {

std::shared_ptr<const protocol::Algorithm> read_po_gp_ucb(ConfigReader& r, ExperimentSpec& spec);
void estimate_po_gp_ucb(const ExperimentSpec& spec, ResourceEstimate& e);
std::shared_ptr<const protocol::Algorithm> read_dp_bo(ConfigReader& r, ExperimentSpec& spec);
void estimate_dp_bo(const ExperimentSpec& spec, ResourceEstimate& e);

}  // namespace fbosim::config
