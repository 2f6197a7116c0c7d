#pragma once
// What the server sends the agents before a round (design note "protocols"), and what it
// receives after one.
#include <memory>
#include <variant>
#include <vector>

#include <Eigen/Core>

#include "algorithms/protocol/message.hpp"

namespace fbosim::protocol {

/// Nothing received (no server, or nothing released yet).
struct NoBroadcast {};
/// One aggregated M-vector per sub-region, omega^(i) (DP-FTS-DE Algo. 1 line 13).
struct RegionSamples {
  std::vector<Eigen::VectorXd> omegas;
};
/// Every agent's message of the round as sent (FTS: the target reads individual peers);
/// messages[n] is agent n's, null when it sent nothing or it did not arrive.
struct PeerMessages {
  std::vector<std::shared_ptr<const Message>> messages;
};

using Broadcast = std::variant<NoBroadcast, RegionSamples, PeerMessages>;

/// The messages that reached the server in one round, in agent order; null = missing (sent
/// nothing, dropped out, or late).
using Inbox = std::vector<std::shared_ptr<const Message>>;

}  // namespace fbosim::protocol
