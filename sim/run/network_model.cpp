#include "sim/run/network_model.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::run {

std::optional<core::SimTime> NetworkModel::delay(const core::RngFactory& rf, int n, int t) const {
  const auto i = static_cast<std::uint64_t>(n);
  const auto j = static_cast<std::uint64_t>(t);
  if (spec_.dropout > 0) {
    core::RngStream drop = rf.stream("network.dropout", i, j);
    if (drop.bernoulli(spec_.dropout)) return std::nullopt;
  }
  const config::LatencySpec& l = spec_.latency;
  double ticks = l.mean;
  if (l.distribution == "uniform") {
    core::RngStream rng = rf.stream("network.latency", i, j);
    ticks = rng.uniform(l.min, l.max);
  } else if (l.distribution == "exponential") {
    core::RngStream rng = rf.stream("network.latency", i, j);
    ticks = -l.mean * std::log1p(-rng.uniform());
  }
  // The config bounds the parameters (LatencySpec::kMaxTicks); an exponential draw exceeds
  // the mean by at most a factor of ~40 (log of the smallest uniform), far from int64 limits.
  if (!(ticks >= 0 && ticks <= 1e3 * config::LatencySpec::kMaxTicks))
    throw std::invalid_argument(
        fmt::format("network.latency: a latency of {:g} ticks is outside [0, {:g}]", ticks,
                    1e3 * config::LatencySpec::kMaxTicks));
  return static_cast<core::SimTime>(std::llround(ticks));
}

}  // namespace fbosim::run
