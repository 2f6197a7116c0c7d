#pragma once
// A smooth random function on R^dim that is (approximately) a sample of GP(0, SE(l), variance 1):
//   f(x) = sqrt(2/K) sum_k w_k cos(s_k . x + b_k),  s_k ~ N(0, l^-2 I), b_k ~ U[0, 2 pi),
//   w_k ~ N(0, 1)
// (random Fourier features, Rahimi & Recht 2007; E f(x) f(x') = exp(-|x - x'|^2 / (2 l^2))).
// Used by the continuous gp_box family, where an exact GP draw has no finite grid to live on.
#include <Eigen/Core>

#include "core/rng.hpp"

namespace fbosim::datasets {

class RffFunction {
 public:
  /// Draws, from rng in this order, s (features x dim, row by row), b, then w.
  static RffFunction draw(int dim, int features, double lengthscale, core::RngStream& rng);

  /// f(x), x: dim-vector; ~features * (dim + 1) flops and features cosines.
  double value(const Eigen::VectorXd& x) const;
  /// f(x) and its gradient (written to grad).
  double value_and_gradient(const Eigen::VectorXd& x, Eigen::VectorXd& grad) const;
  /// f at each row of X (P x dim), in blocks so the temporaries stay small.
  Eigen::VectorXd values(const Eigen::MatrixXd& X) const;

  int dim() const { return static_cast<int>(s_.cols()); }
  int features() const { return static_cast<int>(s_.rows()); }

 private:
  Eigen::MatrixXd s_;  ///< features x dim frequencies
  Eigen::VectorXd b_;  ///< phases
  Eigen::VectorXd w_;  ///< weights, already times sqrt(2/K)
};

}  // namespace fbosim::datasets
