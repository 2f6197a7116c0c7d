#pragma once
// Availability from an OnlineTrace: agent n is online exactly in its trace's intervals, and
// offline for ever after its last one. Every agent 0..N-1 must have at least one interval and
// the trace no agent outside (std::runtime_error naming the file, the line and the agent).
#include "sim/timeline/availability.hpp"
#include "sim/timeline/online_trace.hpp"

namespace fbosim::timeline {

class TraceAvailability final : public Availability {
 public:
  TraceAvailability(OnlineTrace trace, int agents);
  std::optional<Interval> interval(int agent, std::int64_t j, const Interval&) const override;

 private:
  OnlineTrace trace_;
};

}  // namespace fbosim::timeline
