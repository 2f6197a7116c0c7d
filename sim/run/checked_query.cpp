#include "sim/run/checked_query.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace fbosim::run {

datasets::Objective::Evaluation checked_query(const datasets::Objective& objective,
                                              const Eigen::VectorXd& x, core::RngStream& noise,
                                              int agent, int run, int step, const char* step_name) {
  const datasets::Objective::Evaluation e = objective.query_at(x, noise, {run, step});
  if (!std::isfinite(e.y) || !std::isfinite(e.f))
    throw std::runtime_error(fmt::format(
        "objective of agent {} returned a non-finite value (y = {}, f = {}) at x = [{}] in run "
        "{}, {} {}",
        agent, e.y, e.f, fmt::join(x.data(), x.data() + x.size(), ", "), run, step_name, step));
  return e;
}

}  // namespace fbosim::run
