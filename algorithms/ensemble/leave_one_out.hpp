#pragma once
// Leave-one-out posteriors of an exact GP at its own inputs, the target model of RGPE's
// ranking loss (Feurer, Letham & Bakshy 2018, sec. 3.1: f^{-j} is the target GP without
// point j), from ONE n x n inverse instead of n refits.
// With A = K + s2 I (K the kernel matrix at the n inputs, s2 the GP's diagonal noise) and
// B = A^-1, the posterior of f at the inputs given all data is
//   m = y - s2 B (y - m0),  C = s2 I - s2^2 B      (K B = I - s2 B),
// and removing point j from the data subtracts the e_j direction from B's inverse
// (A_{-j}^-1 padded with zeros = B - B e_j e_j^T B / B_jj), so with v = e_j - s2 B e_j:
//   m^(j) = m - v (B (y - m0))_j / B_jj,   C^(j) = C + v v^T / B_jj.
// Each posterior then costs O(n^2) (exact algebra; the same GP as a refit, up to rounding).
#include <Eigen/Core>

#include "algorithms/surrogate/exact_gp.hpp"

namespace fbosim::ensemble {

class LeaveOneOut {
 public:
  /// gp: its kernel, diagonal noise and prior mean are used (its data are not);
  /// X: n x d inputs, y: n outputs. O(n^3). Throws std::runtime_error if K + s2 I is not
  /// positive definite (as ExactGp::fit).
  LeaveOneOut(const surrogate::ExactGp& gp, const Eigen::MatrixXd& X, const Eigen::VectorXd& y);

  /// Mean (n) and covariance (n x n) of the latent f at all n inputs given the data without
  /// point j: what ExactGp::predict_joint(X) gives after fit() on the other n - 1 points.
  surrogate::JointPrediction posterior(Eigen::Index j) const;

  Eigen::Index size() const { return B_.rows(); }

 private:
  double s2_;
  Eigen::MatrixXd B_;      // (K + s2 I)^-1
  Eigen::VectorXd alpha_;  // B (y - m0)
  Eigen::VectorXd mean_;   // m
  Eigen::MatrixXd cov_;    // C
};

}  // namespace fbosim::ensemble
