#include "sim/timeline/message_delivery.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "sim/timeline/parameter_check.hpp"
#include "sim/timeline/reproducible_draws.hpp"

namespace fbosim::timeline {

MessageDelivery::MessageDelivery(const DeliverySpec& spec, core::RngFactory streams)
    : spec_(spec), streams_(streams) {
  if (spec_.latency == LatencyKind::uniform) {
    require_seconds_or_zero("network.latency.min", spec_.min);
    require_seconds_or_zero("network.latency.max", spec_.max);
    if (spec_.max < spec_.min)
      throw std::invalid_argument(fmt::format(
          "network.latency.max must be >= network.latency.min = {}, got {}", spec_.min, spec_.max));
  } else {
    require_seconds_or_zero("network.latency.mean", spec_.mean);
  }
  if (!(spec_.dropout >= 0 && spec_.dropout < 1))
    throw std::invalid_argument(
        fmt::format("network.dropout must be in [0, 1), got {}", spec_.dropout));
}

bool MessageDelivery::lost(int agent, std::int64_t evaluation) const {
  if (spec_.dropout == 0) return false;  // no draw: nothing shifts without dropouts
  core::RngStream rng = streams_.stream("network.dropout", static_cast<std::uint64_t>(agent),
                                        static_cast<std::uint64_t>(evaluation));
  return rng.uniform() < spec_.dropout;
}

double MessageDelivery::latency_seconds(int agent, std::int64_t evaluation) const {
  if (spec_.latency == LatencyKind::constant) return spec_.mean;  // no draw
  core::RngStream rng = streams_.stream("network.latency", static_cast<std::uint64_t>(agent),
                                        static_cast<std::uint64_t>(evaluation));
  // Here, not RngStream::uniform(lo, hi): this library is compiled without FMA contraction.
  if (spec_.latency == LatencyKind::uniform)
    return spec_.min + (spec_.max - spec_.min) * rng.uniform();
  return spec_.mean * standard_exponential(rng);
}

Tick MessageDelivery::latency(int agent, std::int64_t evaluation) const {
  return time_ticks(latency_seconds(agent, evaluation), "network.latency");
}

std::optional<Tick> MessageDelivery::arrival(int agent, std::int64_t evaluation,
                                             Tick complete) const {
  if (lost(agent, evaluation)) return std::nullopt;
  const Tick at = complete + latency(agent, evaluation);  // both below 2^62: no overflow
  if (at >= kEndOfTime)
    throw std::overflow_error(fmt::format(
        "network.latency: agent {}'s message of evaluation {} would arrive at or after the time "
        "line's end (2^62 microseconds, about 146,000 years)",
        agent, evaluation));
  return at;
}

}  // namespace fbosim::timeline
