#pragma once
// Everything that decides when agents complete evaluations: the duration model, the device
// tiers and the availability, built from a TimingSpec (validated: errors name the key or the
// trace file) or from parts. Durations: agent n's evaluation k takes
//   duration_ticks(slowdown(n) * model.draw(stream("timing.duration", n, k)))
// ticks of online time: one stream per (agent, evaluation), so the k-th duration never
// depends on how many draws an earlier one took, on another agent, or on another model.
// With timing.duration.scale_by: records the draw is further multiplied by r_n /
// reference_records, r_n the agent's record count (a duration that depends on data).
#include <cstdint>
#include <memory>
#include <vector>

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
  /// From the keys; a trace path is read as given (the config reader resolves it). With
  /// scale_by records, spec.records must hold every agent's count (> 0; std::invalid_argument).
  static TimingModel from_spec(const TimingSpec& spec, int agents, core::RngFactory streams);

  int agents() const { return tiers_.agents(); }
  /// Agent n's evaluation k's duration in ticks (std::invalid_argument when it reaches the
  /// time line's end).
  Tick duration(int agent, std::int64_t evaluation) const;
  const DurationModel& duration_model() const { return *duration_; }
  const DeviceTiers& tiers() const { return tiers_; }
  const Availability& availability() const { return *availability_; }
  /// Multiplies agent n's durations by factors[n] (its data's size; empty: 1 for everyone).
  void scale_agents(std::vector<double> factors);

 private:
  std::unique_ptr<DurationModel> duration_;
  DeviceTiers tiers_;
  std::unique_ptr<Availability> availability_;
  core::RngFactory streams_;
  std::vector<double> factors_;  // per agent, on top of the tier (empty: none)
};

}  // namespace fbosim::timeline
