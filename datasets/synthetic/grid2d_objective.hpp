#pragma once
// The synthetic GP dataset of PO-GP-UCB (Kharkovskii, Dai & Low 2020, sec. 4): a uniform
// k x k grid of 2-D inputs ("discretized into a 100 x 100 input domain", n = 10000) and
// f ~ GP(0, SE(l), sigma_y^2 = 1) tabulated on it, observed with N(0, sigma_n^2) noise.
// Inputs are the unit square's grid x = (i, j) / (k - 1), row i + k j of the domain; the
// kernel is taken on the grid centred and scaled to maximal norm `input_norm` (the units in
// which the paper gives l = 1.25, after "normalize the inputs to have a maximal norm of 25"),
// or on the unit square when input_norm is 0. Exact draws by the Kronecker structure of the
// SE kernel on a product grid: K = K_1 (x) K_1, so f = vec(L_1 Z L_1^T) with L_1 the Cholesky
// factor of the k x k kernel of one axis (plus a jitter of 1e-8 x 10^m, m <= 4, until it
// factorises, as GridGpSampler does) and Z a k x k matrix of N(0, 1) draws (row by row).
#include <memory>
#include <optional>

#include <Eigen/Core>

#include "datasets/objective.hpp"

namespace fbosim::datasets {

class Grid2dObjective final : public Objective {
 public:
  /// domain: dim 2 with side^2 grid points; values[i + side j] = f((i, j) / (side - 1)).
  Grid2dObjective(std::shared_ptr<const core::Domain> domain, int side, Eigen::VectorXd values,
                  double noise_var);
  const core::Domain& domain() const override { return *domain_; }
  /// f at the grid point nearest x (x in [0,1]^2).
  double evaluate(const Eigen::VectorXd& x) const override { return values_[index_of(x)]; }
  /// f(x) + N(0, noise_var): always one normal from rng.
  double observe(const Eigen::VectorXd& x, core::RngStream& rng) const override;
  std::optional<double> optimum() const override { return optimum_; }

  const Eigen::VectorXd& values() const { return values_; }
  Eigen::Index index_of(const Eigen::VectorXd& x) const;

 private:
  std::shared_ptr<const core::Domain> domain_;
  int side_;
  Eigen::VectorXd values_;
  double noise_sd_;
  double optimum_;
};

/// The side^2 x 2 grid of the unit square, row i + side j = (i, j) / (side - 1).
Eigen::MatrixXd unit_square_grid(int side);
/// One exact draw of f on that grid (side^2 values, the grid's order) for the SE kernel of unit
/// variance and length scale `lengthscale` measured after centring and scaling the grid to
/// maximal norm input_norm (0: on the unit square); all normals from rng.
Eigen::VectorXd sample_grid2d(int side, double lengthscale, double input_norm,
                              core::RngStream& rng);

}  // namespace fbosim::datasets
