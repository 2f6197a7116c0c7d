#pragma once
// The random number of repetitions K of private hyperparameter selection (Papernot & Steinke
// 2022, "Hyperparameter Tuning with Renyi Differential Privacy", ICLR): run a private base
// algorithm K times and release only the best run. K follows
//  * the truncated negative binomial D_{eta, gamma} of their Definition 1 (eta >= 0,
//    gamma in (0, 1)):
//      P[K = k] = (1 - gamma)^k / (gamma^-eta - 1) prod_{l=0}^{k-1} (l + eta) / (l + 1), k >= 1,
//    i.e. a negative binomial conditioned on K >= 1; eta = 1 is the geometric
//    P[K = k] = gamma (1 - gamma)^(k - 1), eta = 0 the limit, the logarithmic distribution
//    P[K = k] = (1 - gamma)^k / (k log(1 / gamma)). Mean (ibid.):
//      E[K] = eta (1 - gamma) / (gamma (1 - gamma^eta))   (eta = 0: (1/gamma - 1) / log(1/gamma));
//  * or Poisson(mu) (their Thm. 6; K = 0 releases nothing).
// A distribution is named by its mean, as dp_accounting's RepeatAndSelectDpEvent does; gamma is
// found by bisection to relative accuracy 1e-12 on the side whose mean is at least the one asked
// for, and the accountants use the mean of that gamma (never below the requested one).
#include <cstdint>

#include "core/rng.hpp"

namespace fbosim::privacy {

class RepetitionDistribution {
 public:
  /// shape eta >= 0 (truncated negative binomial, mean > 1) or +infinity (Poisson, mean >= 1, as
  /// Papernot & Steinke's Thm. 6 and dp_accounting require).
  /// Throws std::invalid_argument naming the bad value.
  RepetitionDistribution(double mean, double shape);

  bool poisson() const;
  double shape() const { return shape_; }
  /// The requested mean.
  double mean() const { return mean_; }
  /// The mean of the distribution actually used (>= mean(), equal for Poisson and geometric).
  double exact_mean() const;
  /// gamma of the truncated negative binomial (NaN for Poisson).
  double gamma() const { return gamma_; }

  /// P[K = k] (k >= 0; 0 at k = 0 for the truncated negative binomial).
  double pmf(long long k) const;
  /// One draw of K from rng (inverse CDF walk of the pmf recursion; Boost's Poisson sampler).
  long long sample(core::RngStream& rng) const;

  /// E[K] of the truncated negative binomial with parameters (gamma, eta).
  static double tnb_mean(double gamma, double shape);

 private:
  double mean_, shape_;
  double gamma_;
};

}  // namespace fbosim::privacy
