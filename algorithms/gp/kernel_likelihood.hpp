#pragma once
// Log marginal likelihood of a zero-mean GP with an SE or Matern kernel, isotropic or with ARD
// length scales (kernel.hpp), and its gradient in the log hyperparameters (Rasmussen & Williams
// 2006, eqs. 5.8 and 5.9). Plain dense Eigen: the isotropic SE kernel of the default experiment
// keeps its own tiled code (marginal_likelihood.hpp), which this file never calls.
#include <Eigen/Core>

#include "algorithms/gp/kernel.hpp"

namespace fbosim::gp {

/// log p(y | X, hyper). X: n x d (one point per row), y: n; hyper.lengthscales of size 1 or d.
/// If grad is non-null it receives the gradient with respect to (log l_1, ..., log l_p,
/// log signal_var, log noise_var), p = hyper.lengthscales.size(). Returns -infinity when the
/// kernel matrix is not positive definite (or a value is not finite).
double log_marginal_likelihood(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                               const KernelHyper& hyper, Eigen::VectorXd* grad = nullptr);

}  // namespace fbosim::gp
