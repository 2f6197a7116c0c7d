#include "algorithms/ensemble/leave_one_out.hpp"

#include <Eigen/Cholesky>

#include <stdexcept>
#include <string>

namespace fbosim::ensemble {

LeaveOneOut::LeaveOneOut(const surrogate::ExactGp& gp, const Eigen::MatrixXd& X,
                         const Eigen::VectorXd& y)
    : s2_(gp.diagonal_noise()) {
  const Eigen::Index n = y.size();
  if (X.rows() != n || X.cols() != gp.dim())
    throw std::invalid_argument("LeaveOneOut: X must be n x " + std::to_string(gp.dim()) +
                                " and y an n-vector");
  // The GP's own kernel (the isotropic SE one or any of gp/kernel.hpp): the algebra above holds
  // for any K.
  const double signal_var = gp.hyper().signal_var;
  Eigen::MatrixXd A = gp.covariance(X, X);
  A.diagonal().setConstant(signal_var + s2_);  // k(x, x) exactly, as ExactGp
  const Eigen::LLT<Eigen::MatrixXd> llt(A);
  if (llt.info() != Eigen::Success || !llt.matrixLLT().diagonal().allFinite())
    throw std::runtime_error("LeaveOneOut: K + s2 I is not positive definite (n = " +
                             std::to_string(n) + ", s2 = " + std::to_string(s2_) + ")");
  B_ = llt.solve(Eigen::MatrixXd::Identity(n, n));
  B_ = (0.5 * (B_ + B_.transpose())).eval();
  alpha_ = B_ * (y.array() - gp.options().prior_mean).matrix();
  mean_ = y - s2_ * alpha_;
  cov_ = -(s2_ * s2_) * B_;
  cov_.diagonal().array() += s2_;
}

surrogate::JointPrediction LeaveOneOut::posterior(Eigen::Index j) const {
  if (j < 0 || j >= size())
    throw std::invalid_argument("LeaveOneOut::posterior: j must be in [0, " +
                                std::to_string(size()) + "), got " + std::to_string(j));
  Eigen::VectorXd v = -s2_ * B_.col(j);
  v[j] += 1.0;
  const double bjj = B_(j, j);
  surrogate::JointPrediction p{mean_ - (alpha_[j] / bjj) * v, cov_};
  p.covariance.noalias() += (v / bjj) * v.transpose();
  return p;
}

}  // namespace fbosim::ensemble
