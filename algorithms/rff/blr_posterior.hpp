#pragma once
// Bayesian linear regression in RFF space (DP-FTS-DE eq. 2): with Phi_t (t x M) and y_t,
// Sigma_t = Phi_t^T Phi_t + lambda I, nu_t = Sigma_t^-1 Phi_t^T y_t and the posterior sample
// omega ~ N(nu_t, lambda Sigma_t^-1). Sigma_t and Phi_t^T y_t are accumulated by rank-one
// updates as observations arrive; the Cholesky factor is refreshed lazily when sampling.
#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "sim/core/rng.hpp"

namespace fbosim::rff {

class BlrPosterior {
 public:
  /// M features, regulariser lambda > 0 (also the posterior covariance scale).
  BlrPosterior(int M, double lambda);

  /// Adds one observation: phi is phi(x) (M-vector), y the observed value.
  void add(const Eigen::VectorXd& phi, double y);
  /// Adds many: Phi is n x M (one phi(x) per row), y an n-vector.
  void add(const Eigen::MatrixXd& Phi, const Eigen::VectorXd& y);

  /// Posterior mean nu_t (M-vector); zero when Sigma_t is not positive definite (the mean of
  /// the fallback draw).
  Eigen::VectorXd mean();
  /// Posterior covariance lambda Sigma_t^-1 (M x M); the identity in the fallback case.
  Eigen::MatrixXd covariance();
  /// One draw omega ~ N(nu_t, lambda Sigma_t^-1). If Sigma_t is not numerically positive
  /// definite the draw falls back to a data-independent N(0, I) sample and
  /// fallback_count() is incremented (spec section 2).
  Eigen::VectorXd sample(core::RngStream& rng);

  int features() const { return static_cast<int>(b_.size()); }
  double lambda() const { return lambda_; }
  int observations() const { return n_; }
  int fallback_count() const { return fallbacks_; }

 private:
  bool refresh();  // recompute the factor if stale; false if not positive definite

  double lambda_;
  Eigen::MatrixXd sigma_;  // Phi^T Phi + lambda I
  Eigen::VectorXd b_;      // Phi^T y
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::VectorXd nu_;  // cached Sigma^-1 Phi^T y, valid when !stale_ && ok_
  bool stale_ = true;
  bool ok_ = false;
  int n_ = 0;
  int fallbacks_ = 0;
};

}  // namespace fbosim::rff
