#include "algorithms/agents/shared_context.hpp"

#include "algorithms/rff/grid_features.hpp"

namespace fbosim::agents {

SharedContext::SharedContext(core::Domain d, rff::RandomFeatures f, de::Partition p)
    : domain(std::move(d)), features(std::move(f)), partition(std::move(p)) {
  for (int i = 0; i < partition.count(); ++i) region_boxes.push_back(partition.box(i));
  if (!domain.is_grid()) return;
  grid_features = rff::grid_features(features, domain.grid);
  region_points.resize(partition.count());
  for (Eigen::Index j = 0; j < domain.grid.rows(); ++j) {
    const Eigen::VectorXd x = domain.grid.row(j).transpose();
    region_points[partition.region_of(x)].push_back(static_cast<int>(j));
  }
}

}  // namespace fbosim::agents
