#pragma once
// GP hyperparameters by posterior sampling, as both authors' codes offer (DP-FTS-DE's and FTS's
// `gp_mcmc` branch, off in their experiments): Gamma priors on the length scale(s), the signal
// variance and the noise variance, a Markov chain on the posterior p(theta | X, y) proportional
// to p(y | X, theta) p(theta), and the mean of the kept samples used as the hyperparameters
// (DP-FTS-DE's bayesian_optimization_dp_fts_de.py: `np.mean(gp_samples, axis=0)`, then fixed).
// [choice] The chain is coordinate-wise slice sampling (SliceSampler, Neal 2003) on the log
// hyperparameters, not the codes' HMC (GPy's HMC, step 5e-2, 500 draws of which the last 300
// are kept): slice sampling needs no step size or leapfrog count to tune, no gradient, and
// adapts its step to the scale of each coordinate; both leave the same posterior invariant.
// The density in u = log theta carries the Jacobian theta (prior Gamma(a, b) on theta gives
// theta^a exp(-b theta) in u), so the samples are from the posterior of theta itself.
#include <Eigen/Core>

#include "algorithms/gp/kernel.hpp"
#include "algorithms/gp/slice_sampler.hpp"
#include "core/rng.hpp"
#include "schema/fwd.hpp"

namespace fbosim::gp {

/// Gamma(shape a, rate b) on a positive hyperparameter: density b^a x^(a-1) e^(-b x) / Gamma(a),
/// mean a / b, variance a / b^2.
struct GammaPrior {
  double shape = 0.1;
  double rate = 0.1;
  /// log density up to its constant: (a - 1) log x - b x.
  double log_density(double x) const;
};

class HyperSampler {
 public:
  /// The defaults are DP-FTS-DE's code: GPy.priors.Gamma.from_EV(1., 10.) (mean 1, variance
  /// 10: shape 0.1, rate 0.1) on all three, 500 draws of which the first 200 are discarded.
  struct Options {
    int samples = 300;       ///< kept states (gp.samples)
    int burn_in = 200;       ///< sweeps discarded first (gp.burn_in)
    int thin = 1;            ///< sweeps per kept state (gp.thin)
    GammaPrior lengthscale;  ///< on each length scale (gp.prior.lengthscale_*)
    GammaPrior signal_var;   ///< gp.prior.signal_var_*
    GammaPrior noise_var;    ///< gp.prior.noise_var_*
    // [choice] The chain lives in the box of the optimiser (HyperFitter::Options, whose values
    // LocalThompson copies here): the priors truncated to it. Without it a noise-free
    // objective pulls the noise variance towards 0, where K is numerically singular.
    double min_lengthscale = 1e-3, max_lengthscale = 10.0;
    double min_signal_var = 1e-4, max_signal_var = 1e2;
    double min_noise_var = 1e-6, max_noise_var = 1.0;
  };

  HyperSampler() = default;
  explicit HyperSampler(Options options) : options_(options) {}

  /// log p(y | X, theta) + log p(theta) + sum log theta at u = log theta = (log l_1, ...,
  /// log l_p, log signal_var, log noise_var), up to a constant; -infinity outside the box and
  /// where the kernel matrix is not positive definite. X: n x d (one point per row), y: n (n = 0:
  /// the prior).
  double log_posterior(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, KernelFamily family,
                       const Eigen::VectorXd& u) const;

  /// The chain from `start` clamped into the box (its noise variance raised to the box's
  /// largest if K is not positive definite there; lengthscales of size 1 or d; its family is
  /// the kernel's): a
  /// samples x (p + 2) matrix of kept states on the natural scale (l_1..l_p, signal_var,
  /// noise_var), one per row. Draws only from rng. Throws std::invalid_argument for a bad
  /// length-scale count or a start of zero posterior density.
  Eigen::MatrixXd chain(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                        const KernelHyper& start, core::RngStream& rng) const;

  /// The mean of the kept states of chain() as hyperparameters (the codes' choice).
  KernelHyper sample(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const KernelHyper& start,
                     core::RngStream& rng) const;

  const Options& options() const { return options_; }

 private:
  Options options_;
};

/// gp.samples, gp.burn_in, gp.thin, gp.prior.*.
const schema::Group<HyperSampler::Options>& hyper_sampler_keys();

}  // namespace fbosim::gp
