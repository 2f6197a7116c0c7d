#pragma once
// What the server sends back each round (Algo. 1 line 13) and what it records about the round.
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "algorithms/privacy/dp_event.hpp"

namespace fbosim::server {

/// One aggregated M-vector per sub-region: omegas[i] is omega^(i).
struct Broadcast {
  std::vector<Eigen::VectorXd> omegas;
  bool empty() const { return omegas.empty(); }
};

/// Per-round bookkeeping for server.csv.
struct RoundStats {
  int received = 0;        ///< messages that reached the server before the deadline
  int selected = 0;        ///< messages used after subsampling
  int clipped = 0;         ///< selected messages whose norm exceeded the clip bound
  double noise_std = 0.0;  ///< std of the Gaussian noise added per coordinate (0 without DP)
};

/// The outcome of one round: the broadcast, the stats and the DP event it released (house
/// rule 4: privacy is data; no event means nothing private was released).
struct Release {
  Broadcast broadcast;
  RoundStats stats;
  std::optional<privacy::DpEvent> event;
};

/// Messages of one round in agent order; a null pointer marks an agent whose message did not
/// arrive (dropped out or late).
using Messages = std::vector<const Eigen::VectorXd*>;

}  // namespace fbosim::server
