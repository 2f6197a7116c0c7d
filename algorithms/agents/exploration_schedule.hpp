#pragma once
// p_t of Algo. 2: the probability that agent n does a local TS step in round t >= 1 instead of
// following the server's broadcast (spec dp-fts-de.md section 5).
//   inv_sqrt:   1 - p_t = 1/sqrt(t)   (synthetic experiments)
//   inv:        1 - p_t = 1/t         (real-world experiments; Fig. 7's faster decay)
//   inv_square: 1 - p_t = 1/t^2       (the theory's O(1/t^2))
//   local:      p_t = 1               (standard TS: never use the server)
// All of them give p_1 = 0: the first BO round always follows the server, as in the code.
#include <string>

#include "sim/schema/enum_names.hpp"

namespace fbosim::agents {

enum class ExplorationSchedule { inv_sqrt, inv, inv_square, local };
/// Their names (exploration.schedule offers the first three, target.schedule all four).
inline constexpr schema::EnumNames<ExplorationSchedule> kExplorationScheduleNames{
    {ExplorationSchedule::inv_sqrt, "inv_sqrt"},
    {ExplorationSchedule::inv, "inv"},
    {ExplorationSchedule::inv_square, "inv_square"},
    {ExplorationSchedule::local, "local"}};

ExplorationSchedule parse_exploration_schedule(const std::string& s);  ///< throws invalid_argument
std::string to_string(ExplorationSchedule s);
/// p_t for round t >= 1.
double local_probability(ExplorationSchedule s, int t);

}  // namespace fbosim::agents
