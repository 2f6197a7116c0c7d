#pragma once
// p_t of DP-FTS-DE's Algo. 2 (Dai, Low & Jaillet, NeurIPS 2021, line 5): the probability that
// agent n does a local TS step in round t >= 1 instead of following the server's broadcast
// (Sec. 5 uses 1 - p_t = 1/sqrt(t) on the synthetic and 1/t on the real-world tasks).
//   inv_sqrt:   1 - p_t = 1/sqrt(t)   (synthetic experiments)
//   inv:        1 - p_t = 1/t         (real-world experiments; Fig. 7's faster decay)
//   inv_square: 1 - p_t = 1/t^2       (the theory's O(1/t^2))
//   local:      p_t = 1               (standard TS: never use the server)
// All of them give p_1 = 0: the first BO round always follows the server, as in the code.
#include <string>

#include "schema/enum_names.hpp"

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
/// The first round t in [1, limit] at which an agent follows the server's broadcast with
/// probability 1 - p_t < threshold (1 - local_probability, as the agent's coin draws it), or
/// limit + 1 when there is none (limit >= 0; found by bisection, so any int limit is cheap). p_t
/// never decreases, so every later round is below too: from there on the broadcast is negligible
/// (DP-FTS-DE, Dai, Low & Jaillet 2021, footnote 13: switch to local TS "after the value of 1 - p_t
/// becomes so small ... that the probability of using the information from the central server is
/// negligible").
int first_negligible_round(ExplorationSchedule s, double threshold, int limit);

}  // namespace fbosim::agents
