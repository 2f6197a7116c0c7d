#pragma once
// Everything that decides when agents complete evaluations: the duration model, the device
// tiers and the availability, built from a TimingSpec (validated: errors name the key or the
// trace file) or from parts. Durations: agent n's evaluation k takes
//   duration_ticks(slowdown(n) * model.draw(stream("timing.duration", n, k)))
// ticks of online time: one stream per (agent, evaluation), so the k-th duration never
// depends on how many draws an earlier one took, on another agent, or on another model.
#include <cstdint>
#include <memory>

#include "core/rng.hpp"
#include "sim/timeline/availability.hpp"
#include "sim/timeline/device_tiers.hpp"
#include "sim/timeline/duration_model.hpp"
#include "sim/timeline/timing_spec.hpp"

namespace fbosim::timeline {

class TimingModel {
 public:
  TimingModel(std::unique_ptr<DurationModel> duration, DeviceTiers tiers,
              std::unique_ptr<Availability> availability, core::RngFactory streams);
  /// From the keys; a trace path is read as given (the config reader resolves it).
  static TimingModel from_spec(const TimingSpec& spec, int agents, core::RngFactory streams);

  int agents() const { return tiers_.agents(); }
  /// Agent n's evaluation k's duration in ticks (std::invalid_argument when it reaches the
  /// time line's end).
  Tick duration(int agent, std::int64_t evaluation) const;
  const DurationModel& duration_model() const { return *duration_; }
  const DeviceTiers& tiers() const { return tiers_; }
  const Availability& availability() const { return *availability_; }

 private:
  std::unique_ptr<DurationModel> duration_;
  DeviceTiers tiers_;
  std::unique_ptr<Availability> availability_;
  core::RngFactory streams_;
};

}  // namespace fbosim::timeline
