#include "sim/timeline/half_normal_duration.hpp"

#include <cmath>
#include <numbers>

#include "sim/timeline/parameter_check.hpp"
#include "sim/timeline/reproducible_draws.hpp"

namespace fbosim::timeline {

HalfNormalDuration::HalfNormalDuration(double sigma) : sigma_(sigma) {
  require_seconds("timing.duration.sigma", sigma);
}

double HalfNormalDuration::draw(core::RngStream& rng) const {
  return sigma_ * std::fabs(standard_normal(rng));
}

double HalfNormalDuration::mean() const { return sigma_ * std::sqrt(2.0 / std::numbers::pi); }

double HalfNormalDuration::variance() const {
  return sigma_ * sigma_ * (1.0 - 2.0 / std::numbers::pi);
}

}  // namespace fbosim::timeline
