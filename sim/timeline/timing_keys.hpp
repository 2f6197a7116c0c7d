#pragma once
// The timing.* keys (issue 41 sec. 1), declared the schema's way on TimingSpec. The
// experiment's reader (sim/config/config_loader.cpp, read_schedule) reads them under any
// schedule.kind but rounds (docs/TIME.md).
//   timing.duration.model   constant | uniform | half_normal | exponential | lognormal | pareto
//   timing.duration.mean / sigma / low / high / scale / shape   (only those of the model)
//   timing.duration.scale_by  none | records, timing.duration.reference_records   (records)
//   timing.tiers.fractions, timing.tiers.slowdowns              (two lists of equal length)
//   timing.availability.model   always | exponential | fixed | trace
//   timing.availability.on / off  (exponential, fixed), timing.availability.trace (trace)
#include "schema/group.hpp"
#include "sim/timeline/timing_spec.hpp"

namespace fbosim::timeline {

const schema::Group<TimingSpec>& timing_keys();

}  // namespace fbosim::timeline
