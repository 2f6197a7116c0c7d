#pragma once
// Type-II maximum likelihood for kernel hyperparameters (the SE kernel; SE and Matern with ARD):
// L-BFGS-B (optim::DenseLbfgsb) on the log hyperparameters from the current values plus random
// restarts, as GPy's optimize_restarts in both papers' authors' code [code].
#include <Eigen/Core>

#include "algorithms/gp/kernel.hpp"
#include "algorithms/gp/se_kernel.hpp"
#include "core/rng.hpp"

namespace fbosim::gp {

class HyperFitter {
 public:
  struct Options {
    int restarts = 10;        ///< random restarts in addition to the start point
    int max_iterations = 50;  ///< L-BFGS-B iterations per start
    // Box on the hyperparameters (natural scale); restarts draw log-uniformly inside it.
    double min_lengthscale = 1e-3, max_lengthscale = 10.0;
    double min_signal_var = 1e-4, max_signal_var = 1e2;
    double min_noise_var = 1e-6, max_noise_var = 1.0;
  };

  HyperFitter() = default;
  explicit HyperFitter(Options options) : options_(options) {}

  /// Maximises log_marginal_likelihood over the box, starting from `start` and from
  /// options().restarts random points drawn from `rng`. X: n x d, y: n. Returns the best
  /// hyperparameters found (never worse than `start` clamped into the box).
  SeHyper fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const SeHyper& start,
              core::RngStream& rng) const;

  /// The same for an SE or Matern kernel, isotropic or ARD (start.lengthscales of size 1 or
  /// d; each length scale in the length-scale box): L-BFGS-B on (log l_1, ..., log l_p,
  /// log signal_var, log noise_var), restarts drawn log-uniformly coordinate by coordinate in
  /// that order. The family is start.family's.
  KernelHyper fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const KernelHyper& start,
                  core::RngStream& rng) const;

  const Options& options() const { return options_; }

 private:
  Options options_;
};

}  // namespace fbosim::gp
