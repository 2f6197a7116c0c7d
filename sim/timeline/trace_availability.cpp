#include "sim/timeline/trace_availability.hpp"

#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace fbosim::timeline {

TraceAvailability::TraceAvailability(OnlineTrace trace, int agents) : trace_(std::move(trace)) {
  for (const auto& [agent, line] : trace_.first_lines())
    if (agent >= agents)
      throw std::runtime_error(fmt::format(
          "{}:{}: agent {} is outside the experiment's agents 0..{} (agents.count = {})",
          trace_.name(), line, agent, agents - 1, agents));
  for (int n = 0; n < agents; ++n)
    if (trace_.intervals(n).empty())
      throw std::runtime_error(
          fmt::format("{}: agent {} has no online interval (every agent 0..{} needs at least one)",
                      trace_.name(), n, agents - 1));
}

std::optional<Interval> TraceAvailability::interval(int agent, std::int64_t j,
                                                    const Interval&) const {
  const std::vector<Interval>& list = trace_.intervals(agent);
  if (j < 0 || j >= static_cast<std::int64_t>(list.size())) return std::nullopt;
  return list[static_cast<std::size_t>(j)];
}

}  // namespace fbosim::timeline
