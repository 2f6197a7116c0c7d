#pragma once
// Log marginal likelihood of a zero-mean GP with SE kernel (Rasmussen & Williams 2006, eq. 5.8)
// and its gradient with respect to the log hyperparameters (eq. 5.9).
#include <Eigen/Core>

#include "algorithms/gp/se_kernel.hpp"

namespace fbosim::gp {

/// log p(y | X, hyper). X: n x d, y: n. If grad is non-null it receives the gradient with
/// respect to (log lengthscale, log signal_var, log noise_var). Returns -infinity when the
/// kernel matrix is not positive definite.
double log_marginal_likelihood(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                               const SeHyper& hyper, Eigen::Vector3d* grad = nullptr);

/// The same with the squared distances D = squared_distances(X, X) precomputed (the
/// hyperparameter fit evaluates many settings on one data set). D must be >= 0 (or NaN, which
/// gives -infinity).
double log_marginal_likelihood_sq(const Eigen::MatrixXd& D, const Eigen::VectorXd& y,
                                  const SeHyper& hyper, Eigen::Vector3d* grad = nullptr);

/// Scratch for repeated evaluations on one data set: once sized by the first call, an
/// evaluation allocates nothing (the fit's inner loop). The matrices are N x N, N = n rounded up
/// to a multiple of 4, K padded with the identity so that the kernels run on whole 4 x 4 tiles.
struct LmlWorkspace {
  Eigen::MatrixXd Kf;     ///< noise-free kernel, lower 4 x 4 tiles, zero in the padding
  Eigen::MatrixXd M;      ///< Kf .* D, the same tiles
  Eigen::MatrixXd L;      ///< Cholesky factor of Kf + noise_var I, lower triangle
  Eigen::MatrixXd T;      ///< (L^-1)^T, upper tiles
  Eigen::VectorXd u;      ///< L^-1 y, padded
  Eigen::VectorXd alpha;  ///< K^-1 y, padded with zeros
};

/// The same, using `ws` as scratch.
double log_marginal_likelihood_sq(const Eigen::MatrixXd& D, const Eigen::VectorXd& y,
                                  const SeHyper& hyper, Eigen::Vector3d* grad, LmlWorkspace& ws);

}  // namespace fbosim::gp
