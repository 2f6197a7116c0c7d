#include "sim/experiment/network_model.hpp"

#include <cmath>

namespace fbosim::sim {

std::optional<core::SimTime> NetworkModel::delay(const core::RngFactory& rf, int n, int t) const {
  const auto i = static_cast<std::uint64_t>(n);
  const auto j = static_cast<std::uint64_t>(t);
  if (spec_.dropout > 0) {
    core::RngStream drop = rf.stream("network.dropout", i, j);
    if (drop.bernoulli(spec_.dropout)) return std::nullopt;
  }
  const LatencySpec& l = spec_.latency;
  double ticks = l.mean;
  if (l.distribution == "uniform") {
    core::RngStream rng = rf.stream("network.latency", i, j);
    ticks = rng.uniform(l.min, l.max);
  } else if (l.distribution == "exponential") {
    core::RngStream rng = rf.stream("network.latency", i, j);
    ticks = -l.mean * std::log1p(-rng.uniform());
  }
  return static_cast<core::SimTime>(std::llround(ticks));
}

}  // namespace fbosim::sim
