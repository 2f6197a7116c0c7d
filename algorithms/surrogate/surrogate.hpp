#pragma once
// The model side of Bayesian optimisation (issue #11, design note "protocols"): a Gaussian
// posterior over a latent function f given noisy observations y = f(x) + eps. Every variance
// and covariance here is that of the latent f, never of a new observation y (add the noise
// variance for the latter). Acquisition code sees only what predict() returns, never a model.
#include <memory>

#include <Eigen/Core>

#include "core/rng.hpp"

namespace fbosim::surrogate {

/// Marginal posterior of f at m points.
struct Prediction {
  Eigen::VectorXd mean;      ///< m-vector, E[f(x_j) | data]
  Eigen::VectorXd variance;  ///< m-vector, Var[f(x_j) | data] (latent f, not y; variance, not std)
};

/// Joint posterior of f at m points.
struct JointPrediction {
  Eigen::VectorXd mean;        ///< m-vector
  Eigen::MatrixXd covariance;  ///< m x m, Cov[f(x_i), f(x_j) | data], symmetric
};

/// Posterior mean and variance of f at one point.
struct PointPrediction {
  double mean = 0.0;
  double variance = 0.0;  ///< latent f
};

class Surrogate {
 public:
  virtual ~Surrogate() = default;

  /// Input dimension d.
  virtual int dim() const = 0;
  /// Number of observations the posterior is conditioned on.
  virtual int size() const = 0;
  /// Variance of the observation noise. predict() returns the variance of the latent f; add
  /// this for the predictive variance of a new y (GPy's include_likelihood=True, which the FTS
  /// authors' RGPE/TAF code uses for the target GP).
  virtual double noise_var() const = 0;

  /// Replaces the data: X is n x d (one point per row), y an n-vector (n may be 0).
  virtual void fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& y) = 0;
  /// Conditions on one more observation: x a d-vector, y its observed value. The result equals
  /// fit() on the data with (x, y) appended, up to rounding.
  virtual void add(const Eigen::VectorXd& x, double y) = 0;

  /// Marginal posterior at Xq (m x d, one point per row); with no data, the prior.
  virtual Prediction predict(const Eigen::MatrixXd& Xq) const = 0;
  /// Mean and variance at one point x (d-vector); if grad_mean / grad_var are non-null they
  /// receive d mean / dx and d variance / dx (d-vectors).
  virtual PointPrediction predict_point(const Eigen::VectorXd& x, Eigen::VectorXd* grad_mean,
                                        Eigen::VectorXd* grad_var) const = 0;
  /// Joint posterior at Xq (m x d).
  virtual JointPrediction predict_joint(const Eigen::MatrixXd& Xq) const = 0;
  /// `count` joint draws of (f(x_1), ..., f(x_m)) from the posterior: an m x count matrix,
  /// one draw per column. Draw s depends only on the first s+1 blocks of normals taken from
  /// rng, so asking for more draws never changes the earlier ones. The default draws
  /// mean + L z with L a Cholesky factor of the joint covariance (sample_joint_gaussian: the
  /// jitter of robust_cholesky, or its PSD projection where no jitter factorises it).
  virtual Eigen::MatrixXd sample(const Eigen::MatrixXd& Xq, int count, core::RngStream& rng) const;

  /// A copy with the same hyperparameters and data (e.g. for leave-one-out refits).
  virtual std::unique_ptr<Surrogate> clone() const = 0;
};

}  // namespace fbosim::surrogate
