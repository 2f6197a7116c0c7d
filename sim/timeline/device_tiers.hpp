#pragma once
// Device tiers (issue 41 sec. 1): a fraction of the agents k times slower. Tier i (from 1)
// holds fractions[i-1] of the N agents, rounded so that tiers 1..i together hold
// floor(N (f_1 + ... + f_i) + 1/2); each of their durations is multiplied by slowdowns[i-1]
// (before the tick rule rounds it). The rest form tier 0 (slowdown 1).
// Which agents: agent n draws one 64-bit key from its own stream ("timing.tier", n); the agents
// are ranked by (key, n) and tier 1 takes the lowest ranks, then tier 2, ... So an agent's key
// never depends on N or on any other stream, and adding an agent moves at most one agent
// across each tier boundary (a rank-based choice, unlike a shuffle of all N).
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "sim/timeline/timing_spec.hpp"

namespace fbosim::timeline {

class DeviceTiers {
 public:
  /// One tier (every slowdown 1).
  explicit DeviceTiers(int agents);
  /// Validates spec (std::invalid_argument naming timing.tiers.* and the value): as many
  /// fractions as slowdowns, each fraction in (0, 1], their sum <= 1 (within 1e-12), each
  /// slowdown in (0, 10^6].
  DeviceTiers(const TierSpec& spec, int agents, const core::RngFactory& streams);

  int agents() const { return static_cast<int>(tier_.size()); }
  /// 0 (base) or i for the spec's i-th tier (from 1).
  int tier(int agent) const { return tier_.at(static_cast<std::size_t>(agent)); }
  /// The factor on agent n's durations.
  double slowdown(int agent) const { return factor_[static_cast<std::size_t>(tier(agent))]; }

  static void validate(const TierSpec& spec);
  static constexpr double kMaxSlowdown = 1e6;
  static constexpr std::size_t kMaxTiers = 250;

 private:
  std::vector<std::uint8_t> tier_;  // per agent
  std::vector<double> factor_;      // per tier, factor_[0] = 1
};

}  // namespace fbosim::timeline
