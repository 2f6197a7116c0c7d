#include "sim/timeline/device_tiers.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace fbosim::timeline {

DeviceTiers::DeviceTiers(int agents) : factor_{1.0} {
  if (agents < 1) throw std::invalid_argument("DeviceTiers: agents must be >= 1");
  tier_.assign(static_cast<std::size_t>(agents), 0);
}

void DeviceTiers::validate(const TierSpec& spec) {
  if (spec.fractions.size() != spec.slowdowns.size())
    throw std::invalid_argument(fmt::format(
        "timing.tiers.slowdowns must have one slowdown per fraction of timing.tiers.fractions "
        "({}), got {}",
        spec.fractions.size(), spec.slowdowns.size()));
  if (spec.fractions.size() > kMaxTiers)
    throw std::invalid_argument(
        fmt::format("timing.tiers.fractions must have at most {} tiers, got {}", kMaxTiers,
                    spec.fractions.size()));
  double sum = 0;
  for (const double f : spec.fractions) {
    if (!(f > 0 && f <= 1))
      throw std::invalid_argument(
          fmt::format("timing.tiers.fractions: each must be in (0, 1], got {}", f));
    sum += f;
  }
  if (sum > 1 + 1e-12)
    throw std::invalid_argument(
        fmt::format("timing.tiers.fractions must sum to at most 1, got {} (sum {:g})",
                    fmt::join(spec.fractions, ", "), sum));
  for (const double k : spec.slowdowns)
    if (!(k > 0 && k <= kMaxSlowdown))
      throw std::invalid_argument(fmt::format(
          "timing.tiers.slowdowns: each must be in (0, {:g}], got {}", kMaxSlowdown, k));
}

DeviceTiers::DeviceTiers(const TierSpec& spec, int agents, const core::RngFactory& streams)
    : DeviceTiers(agents) {
  validate(spec);
  factor_.insert(factor_.end(), spec.slowdowns.begin(), spec.slowdowns.end());
  if (spec.fractions.empty()) return;
  const auto n = static_cast<std::size_t>(agents);
  std::vector<std::pair<std::uint64_t, std::size_t>> keys(n);
  for (std::size_t a = 0; a < n; ++a) keys[a] = {streams.stream("timing.tier", a).engine()(), a};
  std::sort(keys.begin(), keys.end());  // by (key, agent): no ties left
  double cumulative = 0;
  std::size_t from = 0;
  for (std::size_t i = 0; i < spec.fractions.size(); ++i) {
    cumulative += spec.fractions[i];
    const auto to = std::min(
        n, static_cast<std::size_t>(std::floor(static_cast<double>(n) * cumulative + 0.5)));
    for (std::size_t r = from; r < to; ++r)
      tier_[keys[r].second] = static_cast<std::uint8_t>(i + 1);
    from = std::max(from, to);
  }
}

}  // namespace fbosim::timeline
