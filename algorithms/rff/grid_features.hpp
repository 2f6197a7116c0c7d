#pragma once
// Feature matrices on a fixed grid. On an equally spaced 1-D grid x_j = x_0 + j h the phases
// advance by a constant angle, so cos(s x_j + b) = Re(e^{i(s x_0 + b)} (e^{i s h})^j) is computed
// by complex rotation instead of one cos per entry; the rotation is re-anchored with an exact
// cos/sin every kAnchor points, keeping the error near machine precision. Other grids fall back
// to RandomFeatures::features.
#include <Eigen/Core>

#include "algorithms/rff/random_features.hpp"

namespace fbosim::rff {

/// grid: G x d, one point per row -> G x M, one normalised phi(x) per row (same values as
/// features.features(grid) up to rounding).
Eigen::MatrixXd grid_features(const RandomFeatures& features, const Eigen::MatrixXd& grid);

}  // namespace fbosim::rff
