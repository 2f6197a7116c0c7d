#pragma once
// The maximiser over a grid of a posterior sample g(x) = phi(x) . omega in RFF space, the
// grid step of Thompson sampling (DP-FTS-DE Algorithm 1 line 4 on a finite domain). On an
// equally spaced 1-D grid x_j = x_0 + j h the cosines of every feature obey the three-term
// recurrence cos(a + D) = 2 cos D cos a - cos(a - D) along the grid (re-anchored on exact
// cosines every 512 points), and the product with omega and the squared norm of the per-input
// normalisation are accumulated in the same pass, four grid points per SIMD vector: the
// G x M feature matrix is never stored. Other grids are evaluated block by block
// (RandomFeatures::values).
#include <optional>

#include <Eigen/Core>

#include "algorithms/rff/random_features.hpp"

namespace fbosim::rff {

/// An equally spaced 1-D grid x_j = x0 + j h, j < size.
struct UniformGrid {
  double x0 = 0, h = 0;
  Eigen::Index size = 0;
  /// The grid of `grid` (G x d) if it is 1-D, has 3 or more points and is equally spaced.
  static std::optional<UniformGrid> of(const Eigen::MatrixXd& grid);
};

/// The first j maximising g(grid_j) = phi(grid_j) . omega.
Eigen::Index grid_argmax(const RandomFeatures& features, const UniformGrid& grid,
                         const Eigen::VectorXd& omega);
Eigen::Index grid_argmax(const RandomFeatures& features, const Eigen::MatrixXd& grid,
                         const Eigen::VectorXd& omega);

}  // namespace fbosim::rff
