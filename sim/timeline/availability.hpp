#pragma once
// When an agent is online (issue 41 sec. 1; FedScale's client availability): a sequence of
// online intervals [start, end) per agent, in increasing order, generated on demand so that
// an agent's state is one interval and its number. An evaluation runs only while its agent is
// online (Timeline: one that would start offline waits; one interrupted by an offline period
// pauses and resumes when the agent is back). Periods are drawn from streams keyed by
// ("timing.availability", agent, interval number), which nothing else reads.
#include <cstdint>
#include <optional>

#include "sim/timeline/tick.hpp"

namespace fbosim::timeline {

/// Online on [start, end); end = kEndOfTime: for ever. start < end.
struct Interval {
  Tick start = 0;
  Tick end = kEndOfTime;
  bool operator==(const Interval&) const = default;
};

class Availability {
 public:
  virtual ~Availability() = default;
  /// Agent n's online interval number j (j = 0, 1, ...), given its interval j - 1 (`previous`;
  /// ignored for j = 0); nothing when the agent is never online again. Intervals of an agent
  /// are disjoint and increasing: start_j > end_{j-1} (an offline gap between any two).
  virtual std::optional<Interval> interval(int agent, std::int64_t j,
                                           const Interval& previous) const = 0;
};

}  // namespace fbosim::timeline
