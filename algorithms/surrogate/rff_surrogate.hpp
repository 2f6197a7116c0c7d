#pragma once
// The RFF / Bayesian-linear-regression posterior of FTS eqs. (2)-(3) (Dai, Low & Jaillet
// 2020) behind the Surrogate interface: f(x) = phi(x)^T omega, omega ~ N(0, I),
// y = f(x) + N(0, s2). With Sigma = Phi^T Phi + s2 I and nu = Sigma^-1 Phi^T y the posterior
// is omega ~ N(nu, s2 Sigma^-1), so mean(x) = phi(x)^T nu and var(x) = s2 phi^T Sigma^-1 phi
// (FTS App. B: the exact GP of eq. (1) with k = phi^T phi). The Cholesky factor of Sigma is
// updated by one rank-one step per add() (O(M^2)); nu is re-solved there (O(M^2)).
#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "algorithms/rff/random_features.hpp"
#include "algorithms/surrogate/surrogate.hpp"

namespace fbosim::surrogate {

class RffSurrogate : public Surrogate {
 public:
  /// features: the (shared or private) random features; noise_var: s2 > 0 of eq. (2)-(3).
  RffSurrogate(rff::RandomFeatures features, double noise_var);

  int dim() const override { return features_.dim(); }
  int size() const override { return n_; }
  void fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& y) override;
  void add(const Eigen::VectorXd& x, double y) override;
  Prediction predict(const Eigen::MatrixXd& Xq) const override;
  PointPrediction predict_point(const Eigen::VectorXd& x, Eigen::VectorXd* grad_mean,
                                Eigen::VectorXd* grad_var) const override;
  JointPrediction predict_joint(const Eigen::MatrixXd& Xq) const override;
  /// Draws omega ~ N(nu, s2 Sigma^-1) per column and returns Phi(Xq) omega: exact for this
  /// (rank <= M) posterior and O(M^2 + m M) per draw, with no jitter.
  Eigen::MatrixXd sample(const Eigen::MatrixXd& Xq, int count, core::RngStream& rng) const override;
  std::unique_ptr<Surrogate> clone() const override;

  /// nu (M-vector), the posterior mean of omega (eq. 3).
  const Eigen::VectorXd& weight_mean() const { return nu_; }
  /// s2 Sigma^-1 (M x M), the posterior covariance of omega (eq. 2).
  Eigen::MatrixXd weight_covariance() const;
  /// One draw omega = nu + sqrt(s2) L^-T z, z ~ N(0, I_M) from rng (L L^T = Sigma).
  Eigen::VectorXd sample_weights(core::RngStream& rng) const;

  const rff::RandomFeatures& features() const { return features_; }
  double noise_var() const override { return noise_var_; }
  /// The lower Cholesky factor of Sigma (M x M).
  Eigen::MatrixXd cholesky_factor() const { return llt_.matrixL(); }

 private:
  void reset();  // Sigma = s2 I, no data

  rff::RandomFeatures features_;
  double noise_var_;
  int n_ = 0;
  Eigen::LLT<Eigen::MatrixXd> llt_;  // Sigma = L L^T
  Eigen::VectorXd b_;                // Phi^T y
  Eigen::VectorXd nu_;               // Sigma^-1 Phi^T y
};

}  // namespace fbosim::surrogate
