#pragma once
// Isotropic squared-exponential kernel k(x, x') = signal_var * exp(-|x - x'|^2 / (2 l^2)).
#include <Eigen/Core>

#include "schema/fwd.hpp"

namespace fbosim::gp {

/// Hyperparameters of an isotropic SE kernel with Gaussian observation noise.
struct SeHyper {
  double lengthscale = 1.0;  ///< l > 0
  double signal_var = 1.0;   ///< sigma_0^2 (variance, not std)
  double noise_var = 1e-6;   ///< sigma^2 (variance, not std)
};

/// gp.lengthscale, gp.signal_var, gp.noise_var: the hyperparameters as a config sets them
/// (initial or fixed values). gp.noise_var >= 0 here: who needs it > 0 checks that.
const schema::Group<SeHyper>& se_hyper_keys();

/// |a_i - b_j|^2 for A n x d, B m x d (one point per row); returns n x m.
Eigen::MatrixXd squared_distances(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B);

/// K(A, B): A is n x d, B is m x d (one point per row); returns n x m.
Eigen::MatrixXd se_kernel(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double lengthscale,
                          double signal_var);

}  // namespace fbosim::gp
