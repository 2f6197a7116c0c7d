#pragma once
// The 1-D grid domain the agent and system tests run on: `points` equally spaced points on [0,1].
#include <Eigen/Core>

#include "core/box.hpp"

namespace fbosim::testing {

inline core::Domain grid_domain(int points) {
  core::Domain d;
  d.dim = 1;
  d.grid = Eigen::VectorXd::LinSpaced(points, 0.0, 1.0);
  return d;
}

}  // namespace fbosim::testing
