#pragma once
// Alternating online and offline periods per agent (timing.availability.model: exponential or
// fixed), each period at least one tick.
//   exponential: online periods Exp with mean `on`, offline periods Exp with mean `off`
//     (an alternating renewal process started in its stationary state: online at time 0 with
//     probability on / (on + off), the first period's remainder again exponential by
//     memorylessness). Stream ("timing.availability", n, 0) draws the start; (n, j) for
//     j >= 1 draws the offline gap before interval j, then its length.
//   fixed: online `on`, offline `off`, repeated; agent n's phase in that cycle at time 0 is
//     uniform over its ticks (stream ("timing.availability", n, 0)), so that the agents are not
//     all online at once.
#include <cstdint>
#include <optional>

#include "core/rng.hpp"
#include "sim/timeline/availability.hpp"
#include "sim/timeline/timing_spec.hpp"

namespace fbosim::timeline {

class OnOffAvailability final : public Availability {
 public:
  /// kind exponential or fixed; on, off in seconds (timing.availability.on / .off, validated).
  OnOffAvailability(AvailabilityKind kind, double on, double off, core::RngFactory streams);
  std::optional<Interval> interval(int agent, std::int64_t j,
                                   const Interval& previous) const override;

 private:
  std::optional<Interval> exponential(int agent, std::int64_t j, const Interval& previous) const;
  std::optional<Interval> fixed(int agent, std::int64_t j, const Interval& previous) const;

  AvailabilityKind kind_;
  double on_, off_;            // seconds
  Tick on_ticks_, off_ticks_;  // fixed
  core::RngFactory streams_;
};

}  // namespace fbosim::timeline
