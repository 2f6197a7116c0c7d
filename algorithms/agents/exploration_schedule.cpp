#include "algorithms/agents/exploration_schedule.hpp"

#include <cmath>
#include <stdexcept>

namespace fbosim::agents {

ExplorationSchedule parse_exploration_schedule(const std::string& s) {
  if (s == "inv_sqrt") return ExplorationSchedule::inv_sqrt;
  if (s == "inv") return ExplorationSchedule::inv;
  if (s == "inv_square") return ExplorationSchedule::inv_square;
  if (s == "local") return ExplorationSchedule::local;
  throw std::invalid_argument("must be one of inv_sqrt, inv, inv_square, local; got '" + s + "'");
}

std::string to_string(ExplorationSchedule s) {
  switch (s) {
    case ExplorationSchedule::inv_sqrt:
      return "inv_sqrt";
    case ExplorationSchedule::inv:
      return "inv";
    case ExplorationSchedule::inv_square:
      return "inv_square";
    case ExplorationSchedule::local:
      return "local";
  }
  return "?";
}

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
