#pragma once
// The network between an agent and the server on the simulated clock (issue 41: "the existing
// latency, deadline and dropout join the same time line"; docs/TIME.md, "The network on the
// clock"). Agent n's message of evaluation k, completed at c:
//   - is lost with probability `dropout`: one uniform of the stream network.dropout (n, k), lost
//     when below it (the rounds' RngStream::bernoulli, keyed by evaluation in place of round);
//   - else arrives at c + its latency: seconds drawn from the stream network.latency (n, k)
//     (none for `constant`), converted to ticks once by the tick rule (time_ticks: rounded to the
//     nearest tick; 0 stays 0, a message may arrive at its completion's instant).
// Streams that nothing else reads, one per (agent, evaluation): the deliveries are a function
// of (seed, run) and the keys alone, never of data, so the time line they join still replays
// (`fbosim privacy`). The draws are those of the duration models (reproducible_draws.hpp; this
// library is compiled without FMA contraction): the same bits on every x86-64 CPU.
#include <cstdint>
#include <optional>

#include "core/rng.hpp"
#include "sim/timeline/tick.hpp"

namespace fbosim::timeline {

enum class LatencyKind { constant, uniform, exponential };

/// network.latency.* and network.dropout read on the clock (seconds).
struct DeliverySpec {
  LatencyKind latency = LatencyKind::constant;
  double mean = 0;  ///< constant: the latency; exponential: its mean
  double min = 0;   ///< uniform: min + (max - min) U
  double max = 0;
  double dropout = 0;  ///< the probability that a message is lost, in [0, 1)
};

class MessageDelivery {
 public:
  /// Throws std::invalid_argument naming the key for a parameter outside [0, 10^9] seconds, a
  /// uniform max below its min, or a dropout outside [0, 1).
  MessageDelivery(const DeliverySpec& spec, core::RngFactory streams);

  /// Whether agent n's message of evaluation k is lost.
  bool lost(int agent, std::int64_t evaluation) const;
  /// Its latency in seconds, before the tick rule.
  double latency_seconds(int agent, std::int64_t evaluation) const;
  /// Its latency in ticks (>= 0): latency_seconds through time_ticks.
  Tick latency(int agent, std::int64_t evaluation) const;
  /// When it arrives if it completed at `complete`, or nothing when it is lost. Throws
  /// std::overflow_error when it would arrive at or after kEndOfTime.
  std::optional<Tick> arrival(int agent, std::int64_t evaluation, Tick complete) const;

 private:
  DeliverySpec spec_;
  core::RngFactory streams_;
};

}  // namespace fbosim::timeline
