#include "sim/timeline/duration_factory.hpp"

#include <stdexcept>

#include "sim/timeline/constant_duration.hpp"
#include "sim/timeline/exponential_duration.hpp"
#include "sim/timeline/half_normal_duration.hpp"
#include "sim/timeline/lognormal_duration.hpp"
#include "sim/timeline/pareto_duration.hpp"
#include "sim/timeline/uniform_duration.hpp"

namespace fbosim::timeline {

std::unique_ptr<DurationModel> make_duration_model(const DurationSpec& s) {
  switch (s.model) {
    case DurationKind::constant:
      return std::make_unique<ConstantDuration>(s.mean);
    case DurationKind::uniform:
      return std::make_unique<UniformDuration>(s.low, s.high);
    case DurationKind::half_normal:
      return std::make_unique<HalfNormalDuration>(s.sigma);
    case DurationKind::exponential:
      return std::make_unique<ExponentialDuration>(s.mean);
    case DurationKind::lognormal:
      return std::make_unique<LognormalDuration>(s.mean, s.sigma);
    case DurationKind::pareto:
      return std::make_unique<ParetoDuration>(s.scale, s.shape);
  }
  throw std::logic_error("make_duration_model: unknown model");
}

}  // namespace fbosim::timeline
