#pragma once
// Simulated network between agents and server (the stragglers the paper names as a
// limitation): per-(agent, round) reply latency in ticks and a dropout probability. The
// defaults (zero latency, no dropout) reproduce the paper's synchronous rounds.
#include <cstdint>
#include <optional>

#include "sim/config/experiment_spec.hpp"
#include "core/event_queue.hpp"
#include "core/rng.hpp"

namespace fbosim::run {

class NetworkModel {
 public:
  explicit NetworkModel(config::NetworkSpec spec) : spec_(std::move(spec)) {}
  /// The latency of agent n's reply in round t, or nothing if it drops out. Streams
  /// "network.dropout" and "network.latency", keyed by (n, t).
  std::optional<core::SimTime> delay(const core::RngFactory& rf, int n, int t) const;

 private:
  config::NetworkSpec spec_;
};

}  // namespace fbosim::run
