#include "algorithms/privacy/noise_calibration.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/privacy/accountant.hpp"

namespace fbosim::privacy {

Calibration calibrate_noise(const std::string& accountant, DpEvent event, int steps, double delta,
                            double target_epsilon, double rel_tol) {
  if (!(target_epsilon > 0))
    throw std::invalid_argument(fmt::format("target epsilon must be > 0, got {}", target_epsilon));
  if (steps < 1)
    throw std::invalid_argument(fmt::format("steps must be >= 1 to calibrate, got {}", steps));
  const auto epsilon_at = [&](double z) {
    auto acc = make_accountant(accountant);
    event.noise_multiplier = z;
    acc->compose(event, steps);
    return acc->epsilon(delta).epsilon;
  };
  constexpr double kMinZ = 1e-3, kMaxZ = 1e4;
  // Bracket: eps(hi) <= target < eps(lo), growing geometrically from z = 1.
  double hi = 1.0;
  double eps_hi = epsilon_at(hi);
  while (eps_hi > target_epsilon) {
    if (hi >= kMaxZ)
      throw std::invalid_argument(
          fmt::format("target epsilon {} is not reached by any noise multiplier up to {}",
                      target_epsilon, kMaxZ));
    hi *= 2;
    eps_hi = epsilon_at(hi);
  }
  double lo = hi / 2;
  while (epsilon_at(lo) <= target_epsilon) {
    hi = lo;
    if (hi <= kMinZ) break;  // even tiny noise is enough (e.g. a huge target)
    lo = hi / 2;
  }
  eps_hi = epsilon_at(hi);
  while (hi / lo - 1 > rel_tol && hi > kMinZ) {
    const double mid = std::sqrt(lo * hi);  // bisection in log z: z spans decades
    const double e = epsilon_at(mid);
    if (e <= target_epsilon) {
      hi = mid;
      eps_hi = e;
    } else {
      lo = mid;
    }
  }
  return {hi, eps_hi};
}

}  // namespace fbosim::privacy
