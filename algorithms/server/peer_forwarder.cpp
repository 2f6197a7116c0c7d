#include "algorithms/server/peer_forwarder.hpp"

#include <algorithm>

namespace fbosim::server {

protocol::Broadcast PeerForwarder::aggregate(const protocol::Inbox& messages, int /*round*/,
                                             protocol::RoundStats& stats) const {
  for (const auto& m : messages) {
    if (!m) continue;
    const long long floats = protocol::message_floats(*m);
    ++stats.received;
    stats.floats += floats;
    stats.floats_per_message = std::max(stats.floats_per_message, floats);
  }
  stats.selected = stats.received;
  if (stats.received == 0) return protocol::NoBroadcast{};
  return protocol::PeerMessages{messages};
}

}  // namespace fbosim::server
