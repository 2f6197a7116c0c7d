#pragma once
// The server of FTS's target-agent setting (Dai, Low & Jaillet 2020, sec. 3.1: messages reach
// the target "possibly via a central server"): it forwards every message that arrived, as sent,
// and counts the floats received (sec. 3.2's communication cost: M per FTS sample, M + M^2 per
// RGPE / TAF summary, one more with TAF's incumbent).
#include "algorithms/protocol/mechanism.hpp"

namespace fbosim::server {

class PeerForwarder final : public protocol::Aggregator {
 public:
  protocol::Broadcast aggregate(const protocol::Inbox& messages, int round,
                                protocol::RoundStats& stats) const override;
};

}  // namespace fbosim::server
