#include "algorithms/rff/blr_posterior.hpp"

#include <cmath>
#include <stdexcept>

namespace fbosim::rff {

// Only the lower triangle of sigma_ is maintained: Eigen's LLT reads nothing else, and the
// symmetric rank-k update costs half of a full one.

BlrPosterior::BlrPosterior(int M, double lambda)
    : lambda_(lambda),
      sigma_(lambda * Eigen::MatrixXd::Identity(M, M)),
      b_(Eigen::VectorXd::Zero(M)),
      llt_(M) {
  if (M < 1) throw std::invalid_argument("BlrPosterior: need M >= 1");
}

void BlrPosterior::add(const Eigen::VectorXd& phi, double y) {
  if (phi.size() != b_.size()) throw std::invalid_argument("BlrPosterior::add: phi size != M");
  sigma_.selfadjointView<Eigen::Lower>().rankUpdate(phi);
  update_factor(phi);
  b_ += y * phi;
  ++n_;
  nu_stale_ = true;
}

void BlrPosterior::add(const Eigen::MatrixXd& Phi, const Eigen::VectorXd& y) {
  if (Phi.cols() != b_.size() || Phi.rows() != y.size())
    throw std::invalid_argument("BlrPosterior::add: Phi must be n x M and y an n-vector");
  sigma_.selfadjointView<Eigen::Lower>().rankUpdate(Phi.transpose());  // += Phi^T Phi
  b_.noalias() += Phi.transpose() * y;
  n_ += static_cast<int>(Phi.rows());
  factor_stale_ = true;
  nu_stale_ = true;
}

void BlrPosterior::update_factor(const Eigen::VectorXd& phi) {
  if (factor_stale_) return;
  // Sigma + phi phi^T = L L^T + phi phi^T: Givens rotations of [L phi] (Eigen's LLT::rankUpdate).
  // A positive update cannot lose positive definiteness in exact arithmetic, but rounding (or a
  // non-finite phi) can make a pivot non-positive: then, and when the factor is already
  // unusable, Sigma is refactorised from scratch at the next refresh, as before.
  if (llt_.info() == Eigen::Success) llt_.rankUpdate(phi);
  if (llt_.info() != Eigen::Success) factor_stale_ = true;
}

bool BlrPosterior::refresh() {
  if (!factor_stale_ && !nu_stale_) return ok_;
  // Sigma_t is badly conditioned for lambda = 1e-6. LLT only rejects
  // non-positive pivots, so NaN input (which passes that test) is caught by the finiteness
  // checks; lambda <= 0 would make lambda Sigma^-1 an invalid covariance.
  if (factor_stale_) llt_.compute(sigma_);
  factor_stale_ = false;
  nu_stale_ = false;
  ok_ = lambda_ > 0 && llt_.info() == Eigen::Success && llt_.matrixLLT().diagonal().allFinite();
  if (ok_) {
    nu_ = llt_.solve(b_);  // eq. 2: nu_t = Sigma_t^-1 Phi_t^T y_t
    ok_ = nu_.allFinite();
  }
  return ok_;
}

Eigen::VectorXd BlrPosterior::mean() {
  if (!refresh()) return Eigen::VectorXd::Zero(b_.size());
  return nu_;
}

Eigen::MatrixXd BlrPosterior::covariance() {
  const Eigen::Index M = b_.size();
  if (!refresh()) return Eigen::MatrixXd::Identity(M, M);
  return lambda_ * llt_.solve(Eigen::MatrixXd::Identity(M, M));
}

Eigen::VectorXd BlrPosterior::sample(core::RngStream& rng) {
  // z is drawn first so that a fallback consumes the stream exactly like a regular draw.
  Eigen::VectorXd z = rng.normal_vector(b_.size());
  if (refresh()) {
    // Sigma = L L^T  =>  Cov(L^-T z) = Sigma^-1, so nu + sqrt(lambda) L^-T z has the
    // covariance lambda Sigma^-1 of eq. 2.
    Eigen::VectorXd omega = z;
    llt_.matrixU().solveInPlace(omega);
    omega = nu_ + std::sqrt(lambda_) * omega;
    if (omega.allFinite()) return omega;
  }
  ++fallbacks_;  // data-independent N(0, I) draw
  return z;
}

}  // namespace fbosim::rff
