#include "algorithms/agents/exploration_schedule.hpp"

#include <cmath>
#include <stdexcept>

namespace fbosim::agents {

ExplorationSchedule parse_exploration_schedule(const std::string& s) {
  return kExplorationScheduleNames.parse(s);
}

std::string to_string(ExplorationSchedule s) { return kExplorationScheduleNames.name(s); }

double local_probability(ExplorationSchedule s, int t) {
  const double tt = t < 1 ? 1.0 : static_cast<double>(t);
  switch (s) {
    case ExplorationSchedule::inv_sqrt:
      return 1.0 - 1.0 / std::sqrt(tt);
    case ExplorationSchedule::inv:
      return 1.0 - 1.0 / tt;
    case ExplorationSchedule::inv_square:
      return 1.0 - 1.0 / (tt * tt);
    case ExplorationSchedule::local:
      return 1.0;
  }
  return 1.0;
}

}  // namespace fbosim::agents
