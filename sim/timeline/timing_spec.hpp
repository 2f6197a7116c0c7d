#pragma once
// The timing keys' plain data (timing.duration.*, timing.tiers.*, timing.availability.*):
// what timing_keys() reads and TimingModel::from_spec builds. Times in seconds. The defaults
// are the papers' world: every evaluation takes 1 s, one tier, always online.
#include <string>
#include <vector>

#include "schema/enum_names.hpp"

namespace fbosim::timeline {

enum class DurationKind { constant, uniform, half_normal, exponential, lognormal, pareto };
inline constexpr schema::EnumNames<DurationKind> kDurationKindNames{
    {DurationKind::constant, "constant"},       {DurationKind::uniform, "uniform"},
    {DurationKind::half_normal, "half_normal"}, {DurationKind::exponential, "exponential"},
    {DurationKind::lognormal, "lognormal"},     {DurationKind::pareto, "pareto"}};

/// timing.duration.*: the model and the parameters it reads (the others are not keys of it).
struct DurationSpec {
  DurationKind model = DurationKind::constant;
  double mean = 1.0;   ///< constant, exponential, lognormal
  double sigma = 1.0;  ///< half_normal (of the duration), lognormal (of its log)
  double low = 0.0;    ///< uniform
  double high = 2.0;   ///< uniform
  double scale = 1.0;  ///< pareto: the minimum
  double shape = 3.0;  ///< pareto: > 1
};

/// timing.tiers.*: tier i holds the fraction fractions[i] of the agents, each slowdowns[i]
/// times slower; the rest are in the base tier (slowdown 1). Empty: one tier.
struct TierSpec {
  std::vector<double> fractions;
  std::vector<double> slowdowns;
};

enum class AvailabilityKind { always, exponential, fixed, trace };
inline constexpr schema::EnumNames<AvailabilityKind> kAvailabilityKindNames{
    {AvailabilityKind::always, "always"},
    {AvailabilityKind::exponential, "exponential"},
    {AvailabilityKind::fixed, "fixed"},
    {AvailabilityKind::trace, "trace"}};

/// timing.availability.*.
struct AvailabilitySpec {
  AvailabilityKind model = AvailabilityKind::always;
  double on = 60.0;   ///< exponential: mean online period; fixed: its length (seconds)
  double off = 60.0;  ///< exponential: mean offline period; fixed: its length (seconds)
  std::string trace;  ///< trace: the CSV file of online intervals (OnlineTrace)
};

struct TimingSpec {
  DurationSpec duration;
  TierSpec tiers;
  AvailabilitySpec availability;
};

}  // namespace fbosim::timeline
