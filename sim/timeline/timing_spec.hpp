#pragma once
// The timing keys' plain data (timing.duration.*, timing.tiers.*, timing.availability.*):
// what timing_keys() reads and TimingModel::from_spec builds. Times in seconds. The defaults
// are the papers' world: every evaluation takes 1 s, one tier, always online.
#include <cstdint>
#include <string>
#include <vector>

#include "schema/enum_names.hpp"

namespace fbosim::timeline {

enum class DurationKind { constant, uniform, half_normal, exponential, lognormal, pareto };
inline constexpr schema::EnumNames<DurationKind> kDurationKindNames{
    {DurationKind::constant, "constant"},       {DurationKind::uniform, "uniform"},
    {DurationKind::half_normal, "half_normal"}, {DurationKind::exponential, "exponential"},
    {DurationKind::lognormal, "lognormal"},     {DurationKind::pareto, "pareto"}};

/// timing.duration.scale_by: what an agent's durations grow with besides its tier. `records`:
/// its number of training records (datasets::ObjectiveFamily::records), a duration that depends
/// on data (docs/TIME.md "Durations that depend on data").
enum class DurationScale { none, records };
inline constexpr schema::EnumNames<DurationScale> kDurationScaleNames{
    {DurationScale::none, "none"}, {DurationScale::records, "records"}};

/// timing.duration.*: the model and the parameters it reads (the others are not keys of it).
struct DurationSpec {
  DurationKind model = DurationKind::constant;
  double mean = 1.0;   ///< constant, exponential, lognormal
  double sigma = 1.0;  ///< half_normal (of the duration), lognormal (of its log)
  double low = 0.0;    ///< uniform
  double high = 2.0;   ///< uniform
  double scale = 1.0;  ///< pareto: the minimum
  double shape = 3.0;  ///< pareto: > 1
  DurationScale scale_by = DurationScale::none;
  /// scale_by records: the model's draw is the duration on this many records; an agent with r
  /// records takes r / reference_records times as long (a public constant, so that one agent's
  /// durations follow from its own data alone).
  double reference_records = 100.0;
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
  /// scale_by records: each agent's record count, which the config loader reads from the
  /// objective's data (not a key); empty otherwise.
  std::vector<std::int64_t> records;
  /// Whether the durations depend on the agents' data: the time line is then not public, and
  /// run::release_charge charges every agent for every release at replace-one sensitivity.
  bool data_dependent() const { return duration.scale_by != DurationScale::none; }
};

/// What a run's epsilon protects when its durations depend on data (provenance.yaml's
/// `epsilon_notion`, `fbosim privacy`; docs/TIME.md "Durations that depend on data").
inline constexpr const char* kDataDependentNotion =
    "durations depend on data: neighbours replace one agent's data (its timing changing with "
    "it); release times and count fixed in advance; every agent charged for every release, "
    "at twice the clip bound's sensitivity and without subsampling (q = 1)";

}  // namespace fbosim::timeline
