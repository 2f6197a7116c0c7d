#include "algorithms/agents/exploration_schedule.hpp"

#include <algorithm>
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

int first_negligible_round(ExplorationSchedule s, double threshold, int limit) {
  // 1 - p_t as computed never increases with t (every step, 1/sqrt, 1/t, 1 - x, is monotone
  // and correctly rounded), so a bisection finds what a scan of every round would.
  const auto below = [&](int t) { return 1.0 - local_probability(s, t) < threshold; };
  if (limit < 1 || !below(limit)) return std::max(limit, 0) + 1;
  int lo = 0, hi = limit;  // below(hi); lo == 0 or !below(lo)
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (below(mid) ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace fbosim::agents
