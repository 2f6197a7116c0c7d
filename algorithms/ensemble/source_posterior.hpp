#pragma once
// One source agent's RFF-GP posterior as the target sees it from its message (FTS, Dai, Low &
// Jaillet 2020, sec. 3.2; eqs. 2-3): agent n sends nu_n (M) and Sigma_n^-1 (M x M), and with
// the shared features phi and the RFF noise variance lambda (sigma^2 of eqs. 2-3)
//   omega ~ N(nu, lambda Sigma^-1),  mean(x) = phi(x)^T nu,  var(x) = lambda phi(x)^T Sigma^-1
//   phi(x)
// (the variance of the latent g_n(x) = phi(x)^T omega, not of a new observation). Sigma^-1 is
// factorised once, Sigma^-1 = L L^T, so var(x) = lambda |L^T phi(x)|^2 costs one triangular
// product (M^2 / 2 multiply-adds) per point. Everything here takes phi(x), never x: the
// features are shared by all sources, so the caller evaluates them once per point
// (FeaturePoint) or once per batch (RandomFeatures::features) for all N sources.
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "algorithms/ensemble/feature_point.hpp"
#include "algorithms/surrogate/surrogate.hpp"
#include "core/rng.hpp"

namespace fbosim::ensemble {

class SourcePosterior {
 public:
  /// nu: M-vector; sigma_inverse: M x M, symmetric positive definite (Sigma_n^-1 of FTS eq. 3;
  /// an asymmetry up to 1e-6 of its largest entry, e.g. from np.linalg.inv, is symmetrised
  /// away); noise_var: lambda > 0, a variance; incumbent: the agent's best observed value
  /// (TAF's y_max_n, FTS sec. 3.2), if sent. If the plain Cholesky factorisation of
  /// sigma_inverse fails, it is retried with jitter 1e-12 ... 1e-6 of its mean diagonal
  /// (surrogate::robust_cholesky) and the jittered matrix is the one used everywhere
  /// (jitter()). Throws std::invalid_argument naming the bad input otherwise. Also computes
  /// the largest eigenvalue of sigma_inverse for variance_bound() (O(M^3), ~1 ms at M = 100).
  SourcePosterior(Eigen::VectorXd nu, const Eigen::MatrixXd& sigma_inverse, double noise_var,
                  std::optional<double> incumbent = std::nullopt);

  /// The posterior of sum_m a_m g_m for independent g_m ~ parts[m] (parts non-empty, all of
  /// one M): omega ~ N(sum a_m nu_m, sum a_m^2 lambda_m Sigma_m^-1), returned with
  /// noise_var 1 and no incumbent. This is RGPE's ensemble of the sources (Feurer et al. 2018,
  /// eq. 4: mean sum w mu, variance sum w^2 var): one posterior, so a point costs the same
  /// whatever the number of sources. variance_bound() is the sum of the parts' bounds (Weyl).
  static SourcePosterior linear_combination(const std::vector<const SourcePosterior*>& parts,
                                            const std::vector<double>& a);

  /// Per-point scratch space: after the first use no call allocates.
  struct Workspace {
    Eigen::VectorXd u;  ///< L^T phi (M)
    Eigen::VectorXd w;  ///< lambda Sigma^-1 phi (M)
    Eigen::VectorXd g;  ///< a d-vector
  };

  /// mean(x) = phi^T nu for phi = phi(x) (M-vector).
  double mean(const Eigen::VectorXd& phi) const { return phi.dot(nu_); }
  /// var(x) = lambda |L^T phi|^2 (latent; variance, not std); leaves L^T phi in ws.u.
  double variance(const Eigen::VectorXd& phi, Workspace& ws) const;
  /// After variance(phi, ws): ws.w = lambda Sigma^-1 phi, so d var / dx = 2 J^T ws.w
  /// (another M^2 / 2 triangular product).
  void variance_direction(Workspace& ws) const;
  /// Mean and variance at the point `p` was evaluated at; grad_mean / grad_var (if non-null;
  /// p must then hold its Jacobian) receive d mean / dx = J^T nu and
  /// d var / dx = 2 lambda J^T Sigma^-1 phi (d-vectors).
  surrogate::PointPrediction predict_point(const FeaturePoint& p, Eigen::VectorXd* grad_mean,
                                           Eigen::VectorXd* grad_var, Workspace& ws) const;

  /// Phi: m x M (one phi(x_j) per row) -> means (m).
  Eigen::VectorXd mean(const Eigen::MatrixXd& Phi) const;
  /// Phi: m x M -> marginal means and latent variances at the m points.
  surrogate::Prediction predict(const Eigen::MatrixXd& Phi) const;
  /// W = Phi L (m x M): the variances are lambda |row j of W|^2 and the joint covariance at
  /// the m points is lambda W W^T.
  Eigen::MatrixXd whiten(const Eigen::MatrixXd& Phi) const;
  /// `count` joint draws of (g(x_1), ..., g(x_m)): an m x count matrix, column s = Phi omega_s
  /// with omega_s = nu + sqrt(lambda) L z_s ~ N(nu, lambda Sigma^-1), z_s the s-th block of M
  /// normals from rng (as RffSurrogate::sample). Exact for this rank <= M posterior: no jitter.
  Eigen::MatrixXd sample(const Eigen::MatrixXd& Phi, int count, core::RngStream& rng) const;

  int size() const { return static_cast<int>(nu_.size()); }  ///< M
  const Eigen::VectorXd& nu() const { return nu_; }
  /// Sigma^-1 as used: symmetrised, plus jitter() on the diagonal.
  const Eigen::MatrixXd& sigma_inverse() const { return sigma_inverse_; }
  /// L, lower triangular, L L^T = sigma_inverse().
  const Eigen::MatrixXd& factor() const { return lower_; }
  double noise_var() const { return noise_var_; }  ///< lambda
  double jitter() const { return jitter_; }        ///< added to Sigma^-1's diagonal (usually 0)
  const std::optional<double>& incumbent() const { return incumbent_; }
  /// b with var(x) <= b |phi(x)|^2 for every x: lambda times the largest eigenvalue of
  /// sigma_inverse(), enlarged by 1e-8 relative so that rounding never breaks it. For an
  /// honest message (Sigma = Phi^T Phi + lambda I) b <= 1, and b = 1 when t_n < M.
  double variance_bound() const { return variance_bound_; }

 private:
  SourcePosterior() = default;
  void factorise(const char* who);  // lower_, upper_, jitter_ from sigma_inverse_

  Eigen::VectorXd nu_;             // M
  Eigen::MatrixXd sigma_inverse_;  // M x M
  Eigen::MatrixXd lower_;          // L
  Eigen::MatrixXd upper_;          // L^T, stored: the transposed view's product is slower
  double noise_var_ = 1.0;
  double jitter_ = 0.0;
  double variance_bound_ = 0.0;
  std::optional<double> incumbent_;
};

}  // namespace fbosim::ensemble
