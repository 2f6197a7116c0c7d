#pragma once
// Everything the agents of one run share and never modify: the domain, the shared random
// features of the messages (spec section 1, drawn once per run from a seed common to all
// agents), their values on the grid, and the sub-region partition.
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "algorithms/de/partition.hpp"
#include "algorithms/rff/random_features.hpp"
#include "sim/core/box.hpp"

namespace fbosim::agents {

struct SharedContext {
  SharedContext(core::Domain domain, rff::RandomFeatures features, de::Partition partition);

  core::Domain domain;
  rff::RandomFeatures features;  ///< shared RFF of the messages (M features)
  de::Partition partition;
  std::vector<core::Box> region_boxes;  ///< box of every sub-region
  /// Grid domains only: grid_features is G x M (phi of every grid point, one per row) and
  /// region_points[i] lists the grid rows inside sub-region i.
  Eigen::MatrixXd grid_features;
  std::vector<std::vector<int>> region_points;
};

}  // namespace fbosim::agents
