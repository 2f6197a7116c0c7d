#pragma once
// Bayesian linear regression in RFF space (DP-FTS-DE eq. 2): with Phi_t (t x M) and y_t,
// Sigma_t = Phi_t^T Phi_t + lambda I, nu_t = Sigma_t^-1 Phi_t^T y_t and the posterior sample
// omega ~ N(nu_t, lambda Sigma_t^-1). Sigma_t's Cholesky factor follows single observations by
// rank-one updates (O(M^2) each: an agent's message posterior gains one observation per round,
// and refactorising it, O(M^3), was 70 % of a run at M = 400); a batch of observations is added
// to Sigma_t itself, which is then refactorised once, lazily.
#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "core/rng.hpp"

namespace fbosim::rff {

class BlrPosterior {
 public:
  /// M features, regulariser lambda > 0 (also the posterior covariance scale).
  BlrPosterior(int M, double lambda);

  /// Adds one observation: phi is phi(x) (M-vector), y the observed value. O(M^2): a rank-one
  /// update of the factor (when it is current).
  void add(const Eigen::VectorXd& phi, double y);
  /// Adds many: Phi is n x M (one phi(x) per row), y an n-vector. O(n M^2), and the factor is
  /// recomputed (O(M^3)) at the next mean, covariance or sample.
  void add(const Eigen::MatrixXd& Phi, const Eigen::VectorXd& y);

  /// Posterior mean nu_t (M-vector); zero when Sigma_t is not positive definite (the mean of
  /// the fallback draw).
  Eigen::VectorXd mean();
  /// Posterior covariance lambda Sigma_t^-1 (M x M); the identity in the fallback case.
  Eigen::MatrixXd covariance();
  /// One draw omega ~ N(nu_t, lambda Sigma_t^-1). If Sigma_t is not numerically positive
  /// definite the draw falls back to a data-independent N(0, I) sample and
  /// fallback_count() is incremented.
  Eigen::VectorXd sample(core::RngStream& rng);

  int features() const { return static_cast<int>(b_.size()); }
  double lambda() const { return lambda_; }
  int observations() const { return n_; }
  int fallback_count() const { return fallbacks_; }

 private:
  bool refresh();  // bring the factor and nu up to date; false if not positive definite
  void update_factor(const Eigen::VectorXd& phi);  // rank-one update, or mark it stale

  double lambda_;
  Eigen::MatrixXd sigma_;            // Phi^T Phi + lambda I (lower triangle)
  Eigen::VectorXd b_;                // Phi^T y
  Eigen::LLT<Eigen::MatrixXd> llt_;  // of sigma_, current unless factor_stale_
  Eigen::VectorXd nu_;               // Sigma^-1 Phi^T y, current unless nu_stale_
  bool factor_stale_ = true;         // sigma_ changed beyond the factor (a batch, a failed update)
  bool nu_stale_ = true;
  bool ok_ = false;  // the factor (and nu) are finite and positive definite
  int n_ = 0;
  int fallbacks_ = 0;
};

}  // namespace fbosim::rff
