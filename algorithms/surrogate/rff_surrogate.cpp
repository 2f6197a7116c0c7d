#include "algorithms/surrogate/rff_surrogate.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace fbosim::surrogate {

namespace {
void check_factor(const Eigen::LLT<Eigen::MatrixXd>& llt, const char* where) {
  if (llt.info() != Eigen::Success || !llt.matrixLLT().diagonal().allFinite() ||
      !(llt.matrixLLT().diagonal().array() > 0.0).all())
    throw std::runtime_error(std::string("RffSurrogate::") + where +
                             ": Phi^T Phi + s2 I is not numerically positive definite");
}
}  // namespace

RffSurrogate::RffSurrogate(rff::RandomFeatures features, double noise_var)
    : features_(std::move(features)), noise_var_(noise_var) {
  if (!(noise_var > 0.0) || !std::isfinite(noise_var))
    throw std::invalid_argument("RffSurrogate: noise_var must be finite and > 0, got " +
                                std::to_string(noise_var));
  if (features_.size() < 1) throw std::invalid_argument("RffSurrogate: need M >= 1 features");
  reset();
}

void RffSurrogate::reset() {
  const Eigen::Index M = features_.size();
  llt_.compute(noise_var_ * Eigen::MatrixXd::Identity(M, M));
  b_ = Eigen::VectorXd::Zero(M);
  nu_ = Eigen::VectorXd::Zero(M);
  n_ = 0;
}

void RffSurrogate::fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& y) {
  if (X.cols() != dim() || X.rows() != y.size())
    throw std::invalid_argument("RffSurrogate::fit: X must be n x " + std::to_string(dim()) +
                                " and y an n-vector");
  if (!X.allFinite() || !y.allFinite())
    throw std::invalid_argument("RffSurrogate::fit: X and y must be finite");
  const Eigen::Index M = features_.size();
  const Eigen::MatrixXd Phi = features_.features(X);  // n x M
  Eigen::MatrixXd sigma = noise_var_ * Eigen::MatrixXd::Identity(M, M);
  // (Eigen's products with an empty inner dimension are avoided: n may be 0.)
  if (Phi.rows() > 0) sigma.selfadjointView<Eigen::Lower>().rankUpdate(Phi.transpose());
  Eigen::LLT<Eigen::MatrixXd> llt(sigma);
  check_factor(llt, "fit");
  llt_ = std::move(llt);
  b_ = Eigen::VectorXd::Zero(M);
  if (Phi.rows() > 0) b_.noalias() = Phi.transpose() * y;
  nu_ = llt_.solve(b_);
  n_ = static_cast<int>(y.size());
}

void RffSurrogate::add(const Eigen::VectorXd& x, double y) {
  if (x.size() != dim())
    throw std::invalid_argument("RffSurrogate::add: x must have " + std::to_string(dim()) +
                                " entries, got " + std::to_string(x.size()));
  if (!x.allFinite() || !std::isfinite(y))
    throw std::invalid_argument("RffSurrogate::add: x and y must be finite");
  const Eigen::VectorXd phi = features_.feature(x);
  // Sigma + phi phi^T: a positive rank-one update of the factor, O(M^2); it cannot lose
  // definiteness, so the check below only guards against non-finite features.
  llt_.rankUpdate(phi, 1.0);
  check_factor(llt_, "add");
  b_ += y * phi;
  nu_ = llt_.solve(b_);
  ++n_;
}

Prediction RffSurrogate::predict(const Eigen::MatrixXd& Xq) const {
  if (Xq.cols() != dim())
    throw std::invalid_argument("RffSurrogate::predict: Xq must have " + std::to_string(dim()) +
                                " columns");
  if (Xq.rows() == 0) return {};
  const Eigen::MatrixXd Phi = features_.features(Xq);  // m x M
  Eigen::MatrixXd W = Phi.transpose();
  llt_.matrixL().solveInPlace(W);  // W = L^-1 Phi^T: |w_j|^2 = phi_j^T Sigma^-1 phi_j
  return {Phi * nu_, noise_var_ * W.colwise().squaredNorm().transpose()};
}

PointPrediction RffSurrogate::predict_point(const Eigen::VectorXd& x, Eigen::VectorXd* grad_mean,
                                            Eigen::VectorXd* grad_var) const {
  if (x.size() != dim())
    throw std::invalid_argument("RffSurrogate::predict_point: x must have " +
                                std::to_string(dim()) + " entries");
  const Eigen::VectorXd phi = features_.feature(x);
  const Eigen::VectorXd w = noise_var_ * llt_.solve(phi);  // s2 Sigma^-1 phi(x)
  PointPrediction p{phi.dot(nu_), phi.dot(w)};
  // value(x, a, &g) returns phi(x) . a and g = J(x)^T a, J = d phi / dx; so
  // d mean / dx = J^T nu and d var / dx = 2 J^T (s2 Sigma^-1 phi).
  if (grad_mean) features_.value(x, nu_, grad_mean);
  if (grad_var) {
    features_.value(x, w, grad_var);
    *grad_var *= 2.0;
  }
  return p;
}

JointPrediction RffSurrogate::predict_joint(const Eigen::MatrixXd& Xq) const {
  if (Xq.cols() != dim())
    throw std::invalid_argument("RffSurrogate::predict_joint: Xq must have " +
                                std::to_string(dim()) + " columns");
  if (Xq.rows() == 0) return {};
  const Eigen::MatrixXd Phi = features_.features(Xq);
  Eigen::MatrixXd W = Phi.transpose();
  llt_.matrixL().solveInPlace(W);
  JointPrediction j{Phi * nu_, noise_var_ * (W.transpose() * W)};
  return j;
}

Eigen::MatrixXd RffSurrogate::weight_covariance() const {
  const Eigen::Index M = features_.size();
  return noise_var_ * llt_.solve(Eigen::MatrixXd::Identity(M, M));
}

Eigen::VectorXd RffSurrogate::sample_weights(core::RngStream& rng) const {
  Eigen::VectorXd omega = rng.normal_vector(features_.size());
  // Cov(L^-T z) = (L L^T)^-1 = Sigma^-1 (spec of FTS eq. 2, proof of Lemma 3).
  llt_.matrixU().solveInPlace(omega);
  return nu_ + std::sqrt(noise_var_) * omega;
}

Eigen::MatrixXd RffSurrogate::sample(const Eigen::MatrixXd& Xq, int count,
                                     core::RngStream& rng) const {
  if (count < 0) throw std::invalid_argument("RffSurrogate::sample: count must be >= 0");
  if (Xq.cols() != dim())
    throw std::invalid_argument("RffSurrogate::sample: Xq must have " + std::to_string(dim()) +
                                " columns");
  if (count == 0 || Xq.rows() == 0) {
    rng.normal_matrix(count, features_.size());  // the same draws as a non-empty Xq
    return Eigen::MatrixXd(Xq.rows(), count);
  }
  // Row s of Z is draw s's z, so earlier draws do not depend on count (as sample_weights).
  Eigen::MatrixXd Omega = rng.normal_matrix(count, features_.size()).transpose();
  llt_.matrixU().solveInPlace(Omega);
  Omega *= std::sqrt(noise_var_);
  Omega.colwise() += nu_;
  return features_.features(Xq) * Omega;
}

std::unique_ptr<Surrogate> RffSurrogate::clone() const {
  return std::make_unique<RffSurrogate>(*this);
}

}  // namespace fbosim::surrogate
