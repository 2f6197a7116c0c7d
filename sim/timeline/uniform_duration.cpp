#include "sim/timeline/uniform_duration.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "sim/timeline/parameter_check.hpp"

namespace fbosim::timeline {

UniformDuration::UniformDuration(double low, double high) : low_(low), high_(high) {
  require_seconds_or_zero("timing.duration.low", low);
  require_seconds("timing.duration.high", high);
  if (!(high > low))
    throw std::invalid_argument(
        fmt::format("timing.duration.high must be > timing.duration.low = {}, got {}", low, high));
}

// Here, not RngStream::uniform(lo, hi): this library is compiled without FMA contraction.
double UniformDuration::draw(core::RngStream& rng) const {
  return low_ + (high_ - low_) * rng.uniform();
}

}  // namespace fbosim::timeline
