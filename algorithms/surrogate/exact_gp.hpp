#pragma once
// Exact GP posterior, FTS eq. (1) (Dai, Low & Jaillet 2020):
//   mu(x) = m0 + k(x)^T (K + s2 I)^-1 (y - m0),  var(x) = k(x, x) - k(x)^T (K + s2 I)^-1 k(x),
// where s2 = noise_var + jitter. The kernel is the isotropic SE one (gp::se_kernel, the papers'
// and the default experiment's) or any of gp/kernel.hpp (SE, Matern-3/2, Matern-5/2; one length
// scale or one per dimension, gp::kernel_matrix): the same algebra with another k. The factor L of
// K + s2 I is grown by one row per add() (O(n^2), never refactorised) and predict() uses V = L^-1
// K(X, Xq) for both the mean (V^T beta, beta = L^-1 (y - m0), also grown by one entry per add) and
// the variance.
#include <Eigen/Core>

#include <optional>

#include "algorithms/gp/kernel.hpp"
#include "algorithms/gp/se_kernel.hpp"
#include "algorithms/surrogate/surrogate.hpp"

namespace fbosim::surrogate {

class ExactGp : public Surrogate {
 public:
  struct Options {
    /// Constant prior mean m0. The papers use a zero-mean GP (FTS sec. 2); a constant is
    /// allowed so that callers can centre raw outputs. It is set by the caller, never
    /// estimated from y, so that add() and fit() stay the same exact-GP posterior.
    double prior_mean = 0.0;
    /// Added to noise_var on the diagonal of K, relative to signal_var: the model is the GP
    /// with noise variance noise_var + jitter * signal_var. A fixed (not adaptive) jitter
    /// keeps fit() and add() the same model; 1e-10 keeps K + s2 I invertible in double
    /// precision for duplicated inputs when noise_var = 0 and changes nothing measurable
    /// otherwise.
    double jitter = 1e-10;
  };

  /// dim: input dimension d >= 1; hyper: lengthscale > 0, signal_var > 0, noise_var >= 0.
  ExactGp(int dim, gp::SeHyper hyper);
  ExactGp(int dim, gp::SeHyper hyper, Options options);
  /// Any kernel of gp/kernel.hpp: hyper.lengthscales has 1 or dim entries, each finite and > 0.
  /// An isotropic SE kernel is the SeHyper GP above (the same code, the same bits).
  ExactGp(int dim, const gp::KernelHyper& hyper);
  ExactGp(int dim, const gp::KernelHyper& hyper, Options options);

  int dim() const override { return dim_; }
  int size() const override { return n_; }
  /// hyper().noise_var (the jitter is numerical, not observation noise).
  double noise_var() const override { return hyper_.noise_var; }
  void fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& y) override;
  void add(const Eigen::VectorXd& x, double y) override;
  Prediction predict(const Eigen::MatrixXd& Xq) const override;
  PointPrediction predict_point(const Eigen::VectorXd& x, Eigen::VectorXd* grad_mean,
                                Eigen::VectorXd* grad_var) const override;
  JointPrediction predict_joint(const Eigen::MatrixXd& Xq) const override;
  std::unique_ptr<Surrogate> clone() const override;

  /// New hyperparameters: one full refactorisation of the current data (O(n^3)). The SeHyper
  /// form makes the kernel the isotropic SE one.
  void set_hyper(const gp::SeHyper& hyper);
  void set_hyper(const gp::KernelHyper& hyper);
  /// New prior mean: recomputes beta only (O(n^2)).
  void set_prior_mean(double prior_mean);

  /// The signal and noise variances; lengthscale is the kernel's first length scale (the only
  /// one for the isotropic SE kernel).
  const gp::SeHyper& hyper() const { return hyper_; }
  /// The kernel and its hyperparameters (an isotropic SE one: family se, one length scale).
  gp::KernelHyper kernel_hyper() const;
  /// K(A, B) without noise: A n x d, B m x d (one point per row) -> n x m, with this GP's
  /// kernel (gp::se_kernel for the isotropic SE one, gp::kernel_matrix otherwise).
  Eigen::MatrixXd covariance(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const;
  const Options& options() const { return options_; }
  /// noise_var + jitter * signal_var, the s2 on the diagonal.
  double diagonal_noise() const { return hyper_.noise_var + options_.jitter * hyper_.signal_var; }
  /// The lower Cholesky factor of K + s2 I (n x n).
  Eigen::MatrixXd cholesky_factor() const { return L_.topLeftCorner(n_, n_); }
  /// Row i < size() of that factor, its first i + 1 entries (the row add() appended for the
  /// (i+1)-th point), without copying the factor.
  Eigen::VectorXd factor_row(int i) const;
  /// beta_i of beta = L^-1 (y - m0), i < size().
  double whitened_target(int i) const;
  /// The data (n x d inputs, n outputs).
  const Eigen::MatrixXd& inputs() const { return X_; }
  const Eigen::VectorXd& targets() const { return y_; }

 private:
  void refactorise();  // L, beta from X_, y_ (throws if K + s2 I is not positive definite)
  Eigen::MatrixXd solve_lower(const Eigen::MatrixXd& B) const;  // L^-1 B

  int dim_;
  gp::SeHyper hyper_;
  std::optional<gp::KernelHyper> kernel_;  // set unless the kernel is the isotropic SE one
  Options options_;
  int n_ = 0;
  Eigen::MatrixXd X_;     // n x d
  Eigen::VectorXd y_;     // n
  Eigen::MatrixXd L_;     // capacity x capacity; the top-left n x n block is the factor
  Eigen::VectorXd beta_;  // capacity; the head n is L^-1 (y - m0)
};

}  // namespace fbosim::surrogate
