#pragma once
// One query of an objective by the engines (RunEngine's rounds, AsyncEngine's time line): a
// non-finite y or f is an error naming the agent, the point, the run and the step, never a
// value that would poison the best-so-far and the regret.
#include <Eigen/Core>

#include "core/rng.hpp"
#include "datasets/objective.hpp"

namespace fbosim::run {

/// y and f of agent's query at x in run `run`, step `step` (the objective's noise context:
/// a round of RunEngine, an evaluation number of AsyncEngine; `step_name` says which in the
/// message). Throws std::runtime_error when y or f is not finite.
datasets::Objective::Evaluation checked_query(const datasets::Objective& objective,
                                              const Eigen::VectorXd& x, core::RngStream& noise,
                                              int agent, int run, int step, const char* step_name);

}  // namespace fbosim::run
