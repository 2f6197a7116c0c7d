#pragma once
// One event of the time line: an agent completed an evaluation.
#include <cstdint>

#include "sim/timeline/tick.hpp"

namespace fbosim::timeline {

struct Completion {
  Tick time = 0;                ///< when it completed
  int agent = 0;                ///< who
  std::int64_t evaluation = 0;  ///< the agent's evaluation number: 0, 1, ...
  Tick start = 0;               ///< when it started (after any wait for the agent to be online)
  int worker = 0;               ///< which of the agent's workers ran it (schedule.workers)
  /// When its worker was free to start it: the worker's previous completion (or the hold's
  /// instant after it), 0 for the first; the agent proposes its query then.
  Tick propose = 0;
  bool operator==(const Completion&) const = default;
};

}  // namespace fbosim::timeline
