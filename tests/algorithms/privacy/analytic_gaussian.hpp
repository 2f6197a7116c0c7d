#pragma once
// The exact epsilon of the Gaussian mechanism, an accountant-independent reference for the
// tests that check an accountant at q = 1 (where T Gaussian releases compose to one).
#include <cmath>

namespace fbosim::test {

/// The exact epsilon of the Gaussian mechanism with sensitivity 1 and noise s (Balle & Wang 2018,
/// Thm. 8): delta(eps) = Phi(1/(2s) - eps s) - e^eps Phi(-1/(2s) - eps s), solved by bisection.
inline double analytic_gaussian_epsilon(double s, double delta) {
  const auto phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  const auto d = [&](double eps) {
    return phi(1 / (2 * s) - eps * s) - std::exp(eps) * phi(-1 / (2 * s) - eps * s);
  };
  double lo = 0, hi = 100;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (d(mid) > delta ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace fbosim::test
