#include "algorithms/privacy/repetition.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>
#include <boost/random/poisson_distribution.hpp>

namespace fbosim::privacy {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

double RepetitionDistribution::tnb_mean(double gamma, double shape) {
  if (!(gamma > 0 && gamma < 1))
    throw std::invalid_argument(fmt::format("gamma must be in (0, 1), got {}", gamma));
  if (!(shape >= 0 && std::isfinite(shape)))
    throw std::invalid_argument(fmt::format("shape eta must be >= 0 and finite, got {}", shape));
  const double log_gamma = std::log(gamma);
  if (shape == 0) return (1 - gamma) / (gamma * -log_gamma);  // logarithmic
  if (shape == 1) return 1 / gamma;                           // geometric
  // eta (1 - gamma) / (gamma (1 - gamma^eta)), with 1 - gamma^eta = -expm1(eta log gamma).
  return shape * (1 - gamma) / (gamma * -std::expm1(shape * log_gamma));
}

RepetitionDistribution::RepetitionDistribution(double mean, double shape)
    : mean_(mean), shape_(shape), gamma_(kNaN) {
  if (!(shape >= 0))
    throw std::invalid_argument(
        fmt::format("repetitions: shape eta must be >= 0 (or inf for Poisson), got {}", shape));
  if (std::isinf(shape)) {
    if (!(mean >= 1 && mean <= 1e7))
      throw std::invalid_argument(
          fmt::format("repetitions: the Poisson mean must be in [1, 1e7], got {}", mean));
    return;
  }
  if (!(mean > 1 && mean <= 1e7))
    throw std::invalid_argument(fmt::format(
        "repetitions: the mean of a truncated negative binomial must be in (1, 1e7], got {}",
        mean));
  if (shape == 1) {
    gamma_ = 1 / mean;
    return;
  }
  // tnb_mean decreases in gamma; E[K] <= 2 (eta + 1) / gamma bounds gamma from above (the
  // bracket of dp_accounting's _gamma_truncated_negative_binomial).
  double lo = 0, hi = std::min(1.0, 2 * (shape + 1) / mean);
  for (int it = 0; it < 400 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid >= 1 || tnb_mean(mid, shape) < mean)
      hi = mid;
    else
      lo = mid;
  }
  if (!(lo > 0)) throw std::logic_error("repetitions: the bisection for gamma did not move");
  gamma_ = lo;  // mean(gamma_) >= mean: the conservative side
}

bool RepetitionDistribution::poisson() const { return std::isinf(shape_); }

double RepetitionDistribution::exact_mean() const {
  return poisson() ? mean_ : tnb_mean(gamma_, shape_);
}

double RepetitionDistribution::pmf(long long k) const {
  if (k < 0) return 0;
  if (poisson())
    return std::exp(static_cast<double>(k) * std::log(mean_) - mean_ -
                    std::lgamma(static_cast<double>(k) + 1));
  if (k == 0) return 0;
  const double kk = static_cast<double>(k), lg = std::log(gamma_), l1g = std::log1p(-gamma_);
  if (shape_ == 0) return std::exp(kk * l1g - std::log(kk) - std::log(-lg));
  // (1 - gamma)^k Gamma(k + eta) / (Gamma(eta) k!) / (gamma^-eta - 1)
  return std::exp(kk * l1g + std::lgamma(kk + shape_) - std::lgamma(shape_) - std::lgamma(kk + 1) -
                  std::log(std::expm1(-shape_ * lg)));
}

long long RepetitionDistribution::sample(core::RngStream& rng) const {
  if (poisson()) return boost::random::poisson_distribution<long long, double>(mean_)(rng.engine());
  // Inverse CDF: p_1, then p_{k+1} = p_k (1 - gamma) (k + eta) / (k + 1).
  const double u = rng.uniform();
  double p = shape_ == 0 ? (1 - gamma_) / -std::log(gamma_)
                         : (1 - gamma_) * shape_ / std::expm1(-shape_ * std::log(gamma_));
  double cdf = p;
  long long k = 1;
  while (u >= cdf && p > 0) {
    p *= (1 - gamma_) * (static_cast<double>(k) + shape_) / (static_cast<double>(k) + 1);
    cdf += p;
    ++k;
  }
  return k;
}

}  // namespace fbosim::privacy
