#include "algorithms/privacy/noise_calibration.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "core/cancellation.hpp"

namespace fbosim::privacy {

Calibration calibrate_noise(const std::string& accountant,
                            const std::function<DpEvent(double z)>& event_of, int steps,
                            double delta, double target_epsilon, double rel_tol) {
  if (!(target_epsilon > 0))
    throw std::invalid_argument(fmt::format("target epsilon must be > 0, got {}", target_epsilon));
  if (steps < 1)
    throw std::invalid_argument(fmt::format("steps must be >= 1 to calibrate, got {}", steps));
  const auto epsilon_at = [&](double z) {
    core::throw_if_cancelled();  // a pld evaluation of many steps takes up to seconds
    auto acc = make_accountant(accountant);
    acc->compose(event_of(z), steps);
    return acc->epsilon(delta).epsilon;
  };
  constexpr double kMinZ = 1e-3, kMaxZ = 1e4;
  // Start near the answer: pld's epsilon is at most rdp's up to its discretisation error, so the
  // cheap rdp calibration brackets it from above within a few steps (and pld's evaluations,
  // the costly ones, are spent where it matters).
  double hi = 1.0, factor = 2.0;
  if (accountant == "pld") {
    hi = calibrate_noise("rdp", event_of, steps, delta, target_epsilon, 1e-3).noise_multiplier;
    factor = 1.25;
  }
  // Bracket: eps(hi) <= target < eps(lo), growing geometrically.
  double eps_hi = epsilon_at(hi);
  while (eps_hi > target_epsilon) {
    if (hi >= kMaxZ)
      throw std::invalid_argument(
          fmt::format("target epsilon {} is not reached by any noise multiplier up to {}",
                      target_epsilon, kMaxZ));
    hi = std::min(hi * factor, kMaxZ);
    eps_hi = epsilon_at(hi);
  }
  double lo = hi / factor;
  double eps_lo = epsilon_at(lo);
  while (eps_lo <= target_epsilon) {
    hi = lo;
    eps_hi = eps_lo;
    if (hi <= kMinZ) return {hi, eps_hi};  // even tiny noise is enough (e.g. a huge target)
    lo = hi / factor;
    eps_lo = epsilon_at(lo);
  }
  // Brent-Dekker on f(log z) = epsilon(z) - target (continuous, decreasing): superlinear where
  // epsilon is smooth, never slower than bisection. b is the best point, c keeps the sign change.
  const auto f = [&](double x) { return epsilon_at(std::exp(x)) - target_epsilon; };
  double a = std::log(lo), b = std::log(hi), fa = eps_lo - target_epsilon,
         fb = eps_hi - target_epsilon;
  double c = a, fc = fa, d = b - a, e = d;
  const double tol = 0.5 * std::log1p(rel_tol);
  for (int iter = 0; iter < 200; ++iter) {
    if ((fb > 0) == (fc > 0)) {
      c = a;
      fc = fa;
      d = e = b - a;
    }
    if (std::abs(fc) < std::abs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const double m = 0.5 * (c - b);
    if (std::abs(m) <= tol || fb == 0) break;
    if (std::abs(e) >= tol && std::abs(fa) > std::abs(fb)) {
      // Inverse quadratic interpolation, or the secant step when only two points differ.
      double p, q;
      const double s = fb / fa;
      if (a == c) {
        p = 2 * m * s;
        q = 1 - s;
      } else {
        const double qq = fa / fc, r = fb / fc;
        p = s * (2 * m * qq * (qq - r) - (b - a) * (r - 1));
        q = (qq - 1) * (r - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      p = std::abs(p);
      if (2 * p < std::min(3 * m * q - std::abs(tol * q), std::abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = e = m;
      }
    } else {
      d = e = m;
    }
    a = b;
    fa = fb;
    b += std::abs(d) > tol ? d : (m > 0 ? tol : -tol);
    fb = f(b);
  }
  // The answer is the end of the final bracket [b, c] that reaches the target.
  if (fb <= 0) return {std::exp(b), fb + target_epsilon};
  return {std::exp(c), fc + target_epsilon};
}

}  // namespace fbosim::privacy
