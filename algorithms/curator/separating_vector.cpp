#include "algorithms/curator/separating_vector.hpp"

#include <Eigen/QR>

namespace fbosim::curator {

Eigen::VectorXd separating_vector(const Eigen::MatrixXd& X, Eigen::Index i) {
  const Eigen::Index n = X.rows(), d = X.cols();
  Eigen::MatrixXd A(n, d + 1);
  A.col(0).setOnes();
  A.rightCols(d) = X.rowwise() - X.colwise().mean();
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(A);
  // Q's first d + 1 columns span (1, X~) (X~ has full column rank d for the audited data).
  const Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(n, d + 1);
  Eigen::VectorXd u = -Q * Q.row(i).transpose();
  u[i] += 1;
  return u.normalized();
}

}  // namespace fbosim::curator
