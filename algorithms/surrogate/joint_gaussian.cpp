#include "algorithms/surrogate/joint_gaussian.hpp"

#include <Eigen/Cholesky>

#include <stdexcept>
#include <string>

namespace fbosim::surrogate {

JitteredCholesky robust_cholesky(const Eigen::MatrixXd& C) {
  const Eigen::Index m = C.rows();
  if (C.cols() != m) throw std::invalid_argument("robust_cholesky: covariance must be square");
  if (!C.allFinite()) throw std::invalid_argument("robust_cholesky: covariance is not finite");
  JitteredCholesky out;
  if (m == 0) return out;
  const double scale = C.diagonal().mean();
  if (scale < 0.0)
    throw std::invalid_argument("robust_cholesky: negative mean variance " + std::to_string(scale));
  if (scale == 0.0 && C.cwiseAbs().maxCoeff() == 0.0) {
    out.L = Eigen::MatrixXd::Zero(m, m);  // a point mass: every draw is the mean
    return out;
  }
  Eigen::MatrixXd A = C;
  double tried = 0.0;
  for (const double rel : {0.0, 1e-12, 1e-10, 1e-8, 1e-6}) {
    const double jitter = rel * scale;
    A.diagonal() = C.diagonal().array() + jitter;
    Eigen::LLT<Eigen::MatrixXd> llt(A);
    tried = jitter;
    if (llt.info() == Eigen::Success && llt.matrixLLT().diagonal().allFinite()) {
      out.L = llt.matrixL();
      out.jitter = jitter;
      return out;
    }
  }
  throw std::runtime_error(
      "robust_cholesky: covariance is not positive semi-definite even with jitter " +
      std::to_string(tried) + " (1e-6 of the mean variance) on the diagonal");
}

Eigen::MatrixXd sample_joint_gaussian(const Eigen::VectorXd& mean, const Eigen::MatrixXd& C,
                                      int count, core::RngStream& rng) {
  if (count < 0) throw std::invalid_argument("sample_joint_gaussian: count must be >= 0");
  if (C.rows() != mean.size())
    throw std::invalid_argument("sample_joint_gaussian: mean and covariance sizes differ");
  const JitteredCholesky chol = robust_cholesky(C);
  // count x m, row s = z_s: draw s uses the s-th block of m normals whatever count is.
  const Eigen::MatrixXd Z = rng.normal_matrix(count, mean.size());
  Eigen::MatrixXd F(mean.size(), count);
  if (mean.size() > 0 && count > 0)
    F.noalias() = chol.L.triangularView<Eigen::Lower>() * Z.transpose();
  F.colwise() += mean;
  return F;
}

}  // namespace fbosim::surrogate
