#include "sim/timeline/pareto_duration.hpp"

#include <limits>

#include "sim/timeline/parameter_check.hpp"
#include "sim/timeline/portable_log.hpp"
#include "sim/timeline/reproducible_draws.hpp"

namespace fbosim::timeline {

ParetoDuration::ParetoDuration(double scale, double shape) : scale_(scale), shape_(shape) {
  require_seconds("timing.duration.scale", scale);
  require_above("timing.duration.shape", shape, 1.0, "1 (a finite mean)");
}

double ParetoDuration::draw(core::RngStream& rng) const {
  // U^(-1/shape) = exp(-log(U) / shape) = exp(Exp(1) / shape).
  return scale_ * portable_exp(standard_exponential(rng) / shape_);
}

double ParetoDuration::variance() const {
  if (shape_ <= 2.0) return std::numeric_limits<double>::infinity();
  const double a1 = shape_ - 1.0;
  return scale_ * scale_ * shape_ / (a1 * a1 * (shape_ - 2.0));
}

}  // namespace fbosim::timeline
