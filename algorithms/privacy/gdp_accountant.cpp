#include "algorithms/privacy/gdp_accountant.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/privacy/gaussian_tail.hpp"

namespace fbosim::privacy {

bool GdpAccountant::supports_mechanism(const DpEvent& event) const {
  return as_poisson_gaussian(event).has_value();
}

void GdpAccountant::compose_mechanism(const DpEvent& event, long long count) {
  const auto [q, z] = *as_poisson_gaussian(event);
  const double per_step = q == 1 ? 1 / (z * z) : q * q * std::expm1(1 / (z * z));
  mu_squared_ += static_cast<double>(count) * per_step;
}

double GdpAccountant::mu() const { return std::sqrt(mu_squared_); }

double GdpAccountant::delta_of(double mu, double eps) {
  // e^eps Phi(-eps/mu - mu/2) in log space: both factors overflow/underflow for large eps.
  return normal_cdf(-eps / mu + mu / 2) - std::exp(eps + log_normal_cdf(-eps / mu - mu / 2));
}

double GdpAccountant::epsilon_of(double mu, double delta) {
  if (delta_of(mu, 0) <= delta) return 0;
  double lo = 0, hi = 1;
  while (delta_of(mu, hi) > delta) hi *= 2;  // delta_of decreases to 0 as eps grows
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (delta_of(mu, mid) > delta ? lo : hi) = mid;
  }
  return hi;
}

EpsilonResult GdpAccountant::private_epsilon(double delta) const {
  if (!(delta > 0 && delta < 1))
    throw std::invalid_argument(fmt::format("delta must be in (0, 1), got {}", delta));
  if (steps() == 0 || mu_squared_ == 0) return {0.0, 0.0};
  if (!std::isfinite(mu_squared_))  // e^{1/z^2} overflows: no finite mu (never a silent inf)
    throw std::domain_error(
        "gdp cannot answer: the per-step mu^2 = q^2 (e^{1/z^2} - 1) overflows for this z; use rdp");
  return {epsilon_of(mu(), delta), 0.0};
}

AccountantEntry gdp_accountant_entry() {
  return {"gdp", "Gaussian DP's central-limit approximation, which can fall below the true epsilon",
          [] { return std::make_unique<GdpAccountant>(); }, false};
}

}  // namespace fbosim::privacy
