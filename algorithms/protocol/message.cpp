#include "algorithms/protocol/message.hpp"

namespace fbosim::protocol {

long long message_floats(const Message& message) {
  if (const auto* s = std::get_if<RffSample>(&message)) return s->omega.size();
  const auto& g = std::get<GpSummary>(message);
  return g.nu.size() + g.sigma_inverse.size() + (g.incumbent ? 1 : 0);
}

}  // namespace fbosim::protocol
