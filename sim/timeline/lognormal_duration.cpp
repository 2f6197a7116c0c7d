#include "sim/timeline/lognormal_duration.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/timeline/parameter_check.hpp"
#include "sim/timeline/portable_log.hpp"
#include "sim/timeline/reproducible_draws.hpp"

namespace fbosim::timeline {

LognormalDuration::LognormalDuration(double mean, double sigma) : mean_(mean), sigma_(sigma) {
  require_seconds("timing.duration.mean", mean);
  if (!(sigma > 0 && sigma <= kMaxSigma))
    throw std::invalid_argument(
        fmt::format("timing.duration.sigma must be in (0, {:g}], got {}", kMaxSigma, sigma));
  mu_ = portable_log(mean) - 0.5 * sigma * sigma;
}

double LognormalDuration::draw(core::RngStream& rng) const {
  return portable_exp(mu_ + sigma_ * standard_normal(rng));
}

double LognormalDuration::variance() const { return mean_ * mean_ * std::expm1(sigma_ * sigma_); }

}  // namespace fbosim::timeline
