#include "datasets/synthetic/rff_function.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fbosim::datasets {

RffFunction RffFunction::draw(int dim, int features, double lengthscale, core::RngStream& rng) {
  if (dim < 1 || features < 1 || !(lengthscale > 0))
    throw std::invalid_argument("RffFunction: needs dim >= 1, features >= 1, lengthscale > 0");
  RffFunction f;
  f.s_ = rng.normal_matrix(features, dim) / lengthscale;
  f.b_.resize(features);
  for (Eigen::Index k = 0; k < features; ++k) f.b_[k] = rng.uniform(0.0, 2 * std::numbers::pi);
  f.w_ = rng.normal_vector(features) * std::sqrt(2.0 / features);
  return f;
}

double RffFunction::value(const Eigen::VectorXd& x) const {
  if (x.size() != s_.cols()) throw std::invalid_argument("RffFunction: x has the wrong size");
  return (w_.array() * ((s_ * x).array() + b_.array()).cos()).sum();
}

double RffFunction::value_and_gradient(const Eigen::VectorXd& x, Eigen::VectorXd& grad) const {
  if (x.size() != s_.cols()) throw std::invalid_argument("RffFunction: x has the wrong size");
  Eigen::VectorXd z = s_ * x + b_;
  double f = 0;
  // One scalar loop so that the compiler fuses sin and cos of the same z into one sincos.
  for (Eigen::Index k = 0; k < z.size(); ++k) {
    f += w_[k] * std::cos(z[k]);
    z[k] = -w_[k] * std::sin(z[k]);
  }
  grad = s_.transpose() * z;
  return f;
}

Eigen::VectorXd RffFunction::values(const Eigen::MatrixXd& X) const {
  if (X.cols() != s_.cols()) throw std::invalid_argument("RffFunction: X has the wrong width");
  constexpr Eigen::Index kBlock = 256;
  Eigen::VectorXd out(X.rows());
  for (Eigen::Index r = 0; r < X.rows(); r += kBlock) {
    const Eigen::Index m = std::min(kBlock, X.rows() - r);
    Eigen::MatrixXd z = X.middleRows(r, m) * s_.transpose();  // m x K
    z.rowwise() += b_.transpose();
    out.segment(r, m) = z.array().cos().matrix() * w_;
  }
  return out;
}

}  // namespace fbosim::datasets
