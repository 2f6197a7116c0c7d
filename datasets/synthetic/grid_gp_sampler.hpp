#pragma once
// Exact draws of f ~ GP(0, SE(l), variance 1) on the 1-D grid x_j = j/(n-1), j = 0..n-1, the
// domain of the synthetic experiments (App. B.1.1: |X| = 1000, l = 0.03).
#include <Eigen/Core>

#include "core/rng.hpp"

namespace fbosim::datasets {

class GridGpSampler {
 public:
  /// Factorises K + jitter I once (O(n^3); 1000 points take ~0.02 s). The SE kernel on a grid
  /// this dense is numerically singular (l = 0.03 spans 30 grid steps), so a jitter of 1e-8
  /// (relative to the unit variance) is added; if the factorisation still fails it is raised
  /// tenfold, up to 1e-4. The draw thus carries an extra iid N(0, jitter) term, std <= 1e-4 at
  /// the default, far below the +-0.02 agent perturbation.
  GridGpSampler(int points, double lengthscale);

  /// f = L z with z ~ N(0, I_n) drawn from rng (n normals, in grid order); not normalised.
  Eigen::VectorXd sample(core::RngStream& rng) const;

  /// The n x 1 matrix of grid points j/(n-1).
  const Eigen::MatrixXd& grid() const { return grid_; }
  int points() const { return static_cast<int>(grid_.rows()); }
  double jitter() const { return jitter_; }

 private:
  Eigen::MatrixXd grid_;
  Eigen::MatrixXd chol_;  ///< lower Cholesky factor L of K + jitter I
  double jitter_ = 1e-8;
};

/// (v - min v) / (max v - min v), so that min = 0 and max = 1 exactly (App. B.1.1: "normalize
/// the function values into the range [0,1]"); all zeros when v is constant.
Eigen::VectorXd min_max_normalise(const Eigen::VectorXd& v);

}  // namespace fbosim::datasets
