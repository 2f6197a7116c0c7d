#pragma once
// The result of DP-FTS-DE's weighted, privatised sum for given weights (Algo. 1 lines 5-13),
// before it becomes a protocol::Release: one vector per sub-region, the round's bookkeeping and
// the DP event it released (house rule 4: no event means nothing private was released).
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/protocol/mechanism.hpp"

namespace fbosim::server {

struct WeightedRelease {
  std::vector<Eigen::VectorXd> omegas;  ///< omegas[i] is omega^(i), an M-vector
  protocol::RoundStats stats;
  std::optional<privacy::DpEvent> event;
  /// Per-agent charges (a trust model other than central); an aborted release has the charges
  /// and no event.
  std::optional<protocol::AgentCharges> charges;
};

/// Messages of one round in agent order; a null pointer marks an agent whose message did not
/// arrive (dropped out or late).
using Messages = std::vector<const Eigen::VectorXd*>;

/// sum_n w_n^(i) omega_n over the given messages, for every sub-region i (Algo. 1 line 10
/// without the 1/q). Null messages contribute nothing. Returns P vectors of size M.
std::vector<Eigen::VectorXd> weighted_sums(const Messages& messages, const Eigen::MatrixXd& weights,
                                           int features);

}  // namespace fbosim::server
