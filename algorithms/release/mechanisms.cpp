#include "algorithms/release/mechanisms.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::release {

namespace {
void check(double epsilon, double sensitivity) {
  if (!(epsilon > 0 && std::isfinite(epsilon)))
    throw std::invalid_argument(fmt::format("epsilon must be > 0 and finite, got {}", epsilon));
  if (!(sensitivity > 0 && std::isfinite(sensitivity)))
    throw std::invalid_argument(
        fmt::format("sensitivity must be > 0 and finite, got {}", sensitivity));
}
}  // namespace

Eigen::VectorXd exponential_probabilities(const Eigen::VectorXd& scores, double epsilon,
                                          double sensitivity) {
  check(epsilon, sensitivity);
  if (scores.size() == 0 || !scores.allFinite())
    throw std::invalid_argument("exponential mechanism: the scores must be finite and non-empty");
  const Eigen::ArrayXd logits = epsilon * scores.array() / (2 * sensitivity);
  Eigen::ArrayXd w = (logits - logits.maxCoeff()).exp();
  return (w / w.sum()).matrix();
}

Eigen::Index exponential_mechanism(const Eigen::VectorXd& scores, double epsilon,
                                   double sensitivity, core::RngStream& rng) {
  const Eigen::VectorXd p = exponential_probabilities(scores, epsilon, sensitivity);
  const double u = rng.uniform();
  double cdf = 0;
  for (Eigen::Index i = 0; i < p.size(); ++i) {
    cdf += p[i];
    if (u < cdf) return i;
  }
  // Rounding left the total just below u: the last candidate with positive weight.
  for (Eigen::Index i = p.size() - 1; i >= 0; --i)
    if (p[i] > 0) return i;
  return p.size() - 1;
}

double laplace_noise(double scale, core::RngStream& rng) {
  if (!(scale > 0 && std::isfinite(scale)))
    throw std::invalid_argument(fmt::format("Laplace scale must be > 0 and finite, got {}", scale));
  double v = rng.uniform() - 0.5;  // [-1/2, 1/2)
  if (v == -0.5) v = std::nextafter(-0.5, 0.0);
  return -scale * (v < 0 ? -1.0 : 1.0) * std::log1p(-2 * std::abs(v));
}

}  // namespace fbosim::release
