#include "sim/timeline/exponential_duration.hpp"

#include "sim/timeline/parameter_check.hpp"
#include "sim/timeline/reproducible_draws.hpp"

namespace fbosim::timeline {

ExponentialDuration::ExponentialDuration(double mean) : mean_(mean) {
  require_seconds("timing.duration.mean", mean);
}

double ExponentialDuration::draw(core::RngStream& rng) const {
  return mean_ * standard_exponential(rng);
}

}  // namespace fbosim::timeline
