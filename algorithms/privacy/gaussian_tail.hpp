#pragma once
// Normal tail functions in log space, shared by the accountants: exact where erfc is
// representable and by its asymptotic series where it underflows.
#include <cmath>

namespace fbosim::privacy {

/// log erfc(x); beyond x = 20 the asymptotic series of Abramowitz & Stegun 7.1.23 (four terms,
/// exact to double precision there).
inline double log_erfc(double x) {
  if (x < 20) return std::log(std::erfc(x));
  const double r = 1 / (x * x);
  return -x * x - std::log(x) - 0.5 * std::log(M_PI) +
         std::log1p(r * (-0.5 + r * (0.75 + r * (-1.875 + r * 6.5625))));
}

/// Phi(x), the standard normal CDF, accurate in both tails.
inline double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
/// 1 - Phi(x), accurate for large x.
inline double normal_sf(double x) { return 0.5 * std::erfc(x / std::sqrt(2.0)); }
/// log Phi(x).
inline double log_normal_cdf(double x) { return std::log(0.5) + log_erfc(-x / std::sqrt(2.0)); }

}  // namespace fbosim::privacy
