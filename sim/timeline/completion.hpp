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
  bool operator==(const Completion&) const = default;
};

}  // namespace fbosim::timeline
