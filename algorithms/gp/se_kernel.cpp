#include "algorithms/gp/se_kernel.hpp"

namespace fbosim::gp {

Eigen::MatrixXd squared_distances(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
  // |a - b|^2 = |a|^2 + |b|^2 - 2 a.b, clamped at 0 against rounding.
  const Eigen::VectorXd a2 = A.rowwise().squaredNorm();
  const Eigen::VectorXd b2 = B.rowwise().squaredNorm();
  Eigen::MatrixXd D = (-2.0 * A * B.transpose()).colwise() + a2;
  D.rowwise() += b2.transpose();
  return D.cwiseMax(0.0);
}

Eigen::MatrixXd se_kernel(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double lengthscale,
                          double signal_var) {
  return signal_var *
         (squared_distances(A, B) * (-0.5 / (lengthscale * lengthscale))).array().exp().matrix();
}

}  // namespace fbosim::gp
