#include "sim/timeline/timing_keys.hpp"

#include <algorithm>
#include <initializer_list>
#include <vector>

#include <fmt/format.h>

#include "sim/timeline/device_tiers.hpp"
#include "sim/timeline/lognormal_duration.hpp"
#include "sim/timeline/parameter_check.hpp"

namespace fbosim::timeline {

namespace {
using D = DurationKind;
using A = AvailabilityKind;

auto duration_is(std::initializer_list<D> kinds) {
  return [v = std::vector<D>(kinds)](const TimingSpec& s) {
    return std::find(v.begin(), v.end(), s.duration.model) != v.end();
  };
}
auto availability_is(std::initializer_list<A> kinds) {
  return [v = std::vector<A>(kinds)](const TimingSpec& s) {
    return std::find(v.begin(), v.end(), s.availability.model) != v.end();
  };
}
}  // namespace

const schema::Group<TimingSpec>& timing_keys() {
  using T = TimingSpec;
  using schema::at;
  using schema::Range;
  const Range positive_seconds = Range::left_open(0, kMaxParameterSeconds);
  static const auto g =
      schema::Group<T>{}
          .choice("timing.duration.model", at(&T::duration, &DurationSpec::model),
                  kDurationKindNames,
                  "simulated time of one evaluation, in seconds (every timing.* key is read only "
                  "under a schedule.kind other than rounds): `constant` (mean), `uniform` "
                  "(low, high), `half_normal` (sigma), `exponential` (mean), `lognormal` (mean, "
                  "sigma of the log), `pareto` (scale = the minimum, shape > 1)")
          .real("timing.duration.mean", at(&T::duration, &DurationSpec::mean), positive_seconds,
                "the duration's mean (seconds)")
          .when(duration_is({D::constant, D::exponential, D::lognormal}))
          .real("timing.duration.sigma", at(&T::duration, &DurationSpec::sigma),
                Range::left_open(0, kMaxParameterSeconds),
                "`half_normal`: the scale of |N(0, sigma^2)| (seconds); `lognormal`: the "
                "standard deviation of the log, in (0, 5]")
          .when(duration_is({D::half_normal, D::lognormal}))
          .check([](const T& s, schema::Problems& p) {
            if (s.duration.model == D::lognormal && s.duration.sigma > LognormalDuration::kMaxSigma)
              p.push_back({"timing.duration.sigma",
                           fmt::format("must be in (0, {:g}] for a lognormal duration",
                                       LognormalDuration::kMaxSigma)});
          })
          .real("timing.duration.low", at(&T::duration, &DurationSpec::low),
                Range::closed(0, kMaxParameterSeconds), "`uniform`: the shortest (seconds)")
          .when(duration_is({D::uniform}))
          .real("timing.duration.high", at(&T::duration, &DurationSpec::high), positive_seconds,
                "`uniform`: the longest (seconds), > low")
          .when(duration_is({D::uniform}))
          .check([](const T& s, schema::Problems& p) {
            if (s.duration.model == D::uniform && !(s.duration.high > s.duration.low))
              p.push_back({"timing.duration.high", "must be > timing.duration.low"});
          })
          .real("timing.duration.scale", at(&T::duration, &DurationSpec::scale), positive_seconds,
                "`pareto`: the minimum duration (seconds)")
          .when(duration_is({D::pareto}))
          .real("timing.duration.shape", at(&T::duration, &DurationSpec::shape), Range::above(1),
                "`pareto`: the tail index alpha (> 1: a finite mean; <= 2: infinite variance)")
          .when(duration_is({D::pareto}))
          .choice("timing.duration.scale_by", at(&T::duration, &DurationSpec::scale_by),
                  kDurationScaleNames,
                  "`none`: durations are drawn from the timing streams alone (public timing); "
                  "`records`: an agent's durations grow with its number of training records "
                  "(real-data objectives), a duration that depends on data: only with release "
                  "instants and a release count fixed in advance (schedule.releases), every "
                  "agent charged for every release (docs/TIME.md)")
          .real("timing.duration.reference_records",
                at(&T::duration, &DurationSpec::reference_records), Range::left_open(0, 1e12),
                "`scale_by: records`: the model's draw is the duration on this many records; an "
                "agent with r records takes r / reference_records times as long")
          .when([](const T& s) { return s.duration.scale_by == DurationScale::records; })
          .real_list("timing.tiers.fractions", at(&T::tiers, &TierSpec::fractions),
                     Range::left_open(0, 1),
                     "device tiers: the fraction of the agents in each tier (sum <= 1; the rest "
                     "run at speed 1); which agents, by stream `timing.tier`")
          .real_list("timing.tiers.slowdowns", at(&T::tiers, &TierSpec::slowdowns),
                     Range::left_open(0, DeviceTiers::kMaxSlowdown),
                     "device tiers: each tier's factor on its agents' durations (10: ten times "
                     "slower), one per fraction")
          .check([](const T& s, schema::Problems& p) {
            const TierSpec& t = s.tiers;
            double sum = 0;
            for (const double f : t.fractions) sum += f;
            if (t.fractions.size() != t.slowdowns.size())
              p.push_back(
                  {"timing.tiers.slowdowns", fmt::format("must have one slowdown per fraction of "
                                                         "timing.tiers.fractions ({})",
                                                         t.fractions.size())});
            else if (sum > 1 + 1e-12)
              p.push_back(
                  {"timing.tiers.fractions", fmt::format("must sum to at most 1 (sum {:g})", sum)});
            else if (t.fractions.size() > DeviceTiers::kMaxTiers)
              p.push_back({"timing.tiers.fractions",
                           fmt::format("must have at most {} tiers", DeviceTiers::kMaxTiers)});
          })
          .choice("timing.availability.model", at(&T::availability, &AvailabilitySpec::model),
                  kAvailabilityKindNames,
                  "when agents are online: `always`, `exponential` (online and offline periods "
                  "exponential with means on, off), `fixed` (on, off repeated, each agent at a "
                  "random phase), `trace` (a CSV file of online intervals). An evaluation runs "
                  "only while its agent is online: it waits, and pauses while offline")
          .real("timing.availability.on", at(&T::availability, &AvailabilitySpec::on),
                positive_seconds,
                "online period: the mean (`exponential`) or the length (`fixed`), seconds")
          .when(availability_is({A::exponential, A::fixed}))
          .real("timing.availability.off", at(&T::availability, &AvailabilitySpec::off),
                positive_seconds,
                "offline period: the mean (`exponential`) or the length (`fixed`), seconds")
          .when(availability_is({A::exponential, A::fixed}))
          .text("timing.availability.trace", at(&T::availability, &AvailabilitySpec::trace),
                "`trace`: a CSV file `agent,start,end` of online intervals in seconds, every "
                "agent at least one, sorted by start, not overlapping")
          .when(availability_is({A::trace}))
          .check([](const T& s, schema::Problems& p) {
            if (s.availability.model == A::trace && s.availability.trace.empty())
              p.push_back({"timing.availability.model",
                           "needs timing.availability.trace, a CSV file of online intervals"});
          });
  return g;
}

}  // namespace fbosim::timeline
