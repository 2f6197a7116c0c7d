#include "sim/timeline/timing_model.hpp"

#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "sim/timeline/always_online.hpp"
#include "sim/timeline/duration_factory.hpp"
#include "sim/timeline/on_off_availability.hpp"
#include "sim/timeline/trace_availability.hpp"

namespace fbosim::timeline {

TimingModel::TimingModel(std::unique_ptr<DurationModel> duration, DeviceTiers tiers,
                         std::unique_ptr<Availability> availability, core::RngFactory streams)
    : duration_(std::move(duration)),
      tiers_(std::move(tiers)),
      availability_(std::move(availability)),
      streams_(streams) {
  if (!duration_ || !availability_) throw std::logic_error("TimingModel: a part is missing");
}

namespace {

// r_n / reference_records for every agent (scale_by records).
std::vector<double> record_factors(const TimingSpec& spec, int agents) {
  if (spec.records.size() != static_cast<std::size_t>(agents))
    throw std::invalid_argument(fmt::format(
        "timing.duration.scale_by: records needs every agent's record count: {} agents, {} "
        "counts",
        agents, spec.records.size()));
  std::vector<double> out;
  for (const std::int64_t r : spec.records) {
    if (r <= 0)
      throw std::invalid_argument(
          fmt::format("timing.duration.scale_by: records: agent {} has {} records (must be > 0)",
                      out.size(), r));
    out.push_back(static_cast<double>(r) / spec.duration.reference_records);
  }
  return out;
}

}  // namespace

TimingModel TimingModel::from_spec(const TimingSpec& spec, int agents, core::RngFactory streams) {
  std::unique_ptr<Availability> a;
  const AvailabilitySpec& as = spec.availability;
  switch (as.model) {
    case AvailabilityKind::always:
      a = std::make_unique<AlwaysOnline>();
      break;
    case AvailabilityKind::exponential:
    case AvailabilityKind::fixed:
      a = std::make_unique<OnOffAvailability>(as.model, as.on, as.off, streams);
      break;
    case AvailabilityKind::trace:
      if (as.trace.empty())
        throw std::invalid_argument(
            "timing.availability.trace must name a CSV file of online intervals when "
            "timing.availability.model is trace");
      a = std::make_unique<TraceAvailability>(OnlineTrace::read(as.trace), agents);
      break;
  }
  TimingModel model(make_duration_model(spec.duration), DeviceTiers(spec.tiers, agents, streams),
                    std::move(a), streams);
  if (spec.duration.scale_by == DurationScale::records)
    model.scale_agents(record_factors(spec, agents));
  return model;
}

void TimingModel::scale_agents(std::vector<double> factors) {
  if (factors.size() != static_cast<std::size_t>(agents()))
    throw std::logic_error("TimingModel::scale_agents: one factor per agent is needed");
  factors_ = std::move(factors);
}

Tick TimingModel::duration(int agent, std::int64_t evaluation) const {
  double draw = duration_->mean();  // a model that draws nothing: its one value
  if (duration_->random()) {
    core::RngStream rng = streams_.stream("timing.duration", static_cast<std::uint64_t>(agent),
                                          static_cast<std::uint64_t>(evaluation));
    draw = duration_->draw(rng);
  }
  double s = tiers_.slowdown(agent) * draw;
  if (!factors_.empty()) s *= factors_[static_cast<std::size_t>(agent)];
  try {
    return duration_ticks(s, "timing.duration");
  } catch (const std::invalid_argument& e) {  // formatted only when it happens
    throw std::invalid_argument(
        fmt::format("{} (agent {}, evaluation {})", e.what(), agent, evaluation));
  }
}

}  // namespace fbosim::timeline
