#pragma once
// Random Fourier features of the SE kernel (Rahimi & Recht 2007; Matern kernels and ARD length
// scales: the second draw()), normalised per input as in
// the DP-FTS-DE authors' code: phi(x)_i = sqrt(2/M) cos(s_i . x + b_i),
// s_i ~ N(0, l^-2 I), b_i ~ U[0, 2 pi], then phi(x) <- sqrt(signal_var) phi(x) / |phi(x)|, so
// that phi(x) . phi(x) = signal_var = k(x, x).
#include <Eigen/Core>

#include "algorithms/gp/kernel.hpp"
#include "core/rng.hpp"

namespace fbosim::rff {

class RandomFeatures {
 public:
  /// Draws M features for inputs of dimension dim. The draws use only `rng`.
  static RandomFeatures draw(int dim, int M, double lengthscale, double signal_var,
                             core::RngStream& rng);
  /// M features of an SE or Matern kernel with one length scale or one per dimension
  /// (lengthscales of size 1 or dim): s_i = z_i / l (elementwise) for SE, and for Matern-nu
  /// s_i = z_i / (l sqrt(u_i / (2 nu))), z_i ~ N(0, I), u_i ~ chi^2 with 2 nu degrees of freedom
  /// (a sum of 2 nu = 3 or 5 squared normals): a multivariate Student t with 2 nu degrees of
  /// freedom and scale diag(l)^-2, the kernel's spectral density (Rasmussen & Williams 2006,
  /// eq. 4.15; Rahimi & Recht 2007). Draw order: all of z row by row, then u_1 .. u_M (2 nu
  /// normals each), then b. For SE with one length scale this is draw(dim, M, l, ...) bit for
  /// bit.
  static RandomFeatures draw(int dim, int M, gp::KernelFamily family,
                             const Eigen::VectorXd& lengthscales, double signal_var,
                             core::RngStream& rng);
  /// The features with frequencies S (M x d, rows s_i), phases b (M) and signal variance
  /// signal_var > 0, e.g. features drawn once with l = 1 and rescaled (S / l) to another
  /// length scale: draw(d, M, l, v, rng) equals from(draw(d, M, 1, 1, rng').frequencies() / l,
  /// ..., v) bit for bit when rng' is a copy of rng.
  static RandomFeatures from(Eigen::MatrixXd S, Eigen::VectorXd b, double signal_var);

  /// X: n x d (one point per row) -> n x M feature matrix, one phi(x) per row.
  Eigen::MatrixXd features(const Eigen::MatrixXd& X) const;
  /// phi(x) for one point x (d-vector) -> M-vector.
  Eigen::VectorXd feature(const Eigen::VectorXd& x) const;
  /// g(x) = phi(x) . omega and, if grad is non-null, its gradient d g / d x (a d-vector),
  /// including the normalisation.
  double value(const Eigen::VectorXd& x, const Eigen::VectorXd& omega,
               Eigen::VectorXd* grad = nullptr) const;
  /// Scratch space of value(); reusing one across calls keeps optimisers allocation-free.
  struct Workspace {
    Eigen::VectorXd angle, cos, sin;
  };
  /// Same as value() above, with caller-owned scratch space.
  double value(const Eigen::VectorXd& x, const Eigen::VectorXd& omega, Eigen::VectorXd* grad,
               Workspace& ws) const;
  /// g on many points: X n x d -> n-vector of phi(x_j) . omega.
  Eigen::VectorXd values(const Eigen::MatrixXd& X, const Eigen::VectorXd& omega) const;

  int dim() const { return static_cast<int>(S_.cols()); }
  int size() const { return static_cast<int>(S_.rows()); }
  const Eigen::MatrixXd& frequencies() const { return S_; }  ///< M x d, rows s_i
  const Eigen::VectorXd& phases() const { return b_; }       ///< M, b_i
  double signal_var() const { return signal_var_; }

 private:
  Eigen::MatrixXd S_;  // M x d
  Eigen::VectorXd b_;  // M
  double signal_var_ = 1.0;
};

}  // namespace fbosim::rff
