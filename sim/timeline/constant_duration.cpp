#include "sim/timeline/constant_duration.hpp"

#include "sim/timeline/parameter_check.hpp"

namespace fbosim::timeline {

ConstantDuration::ConstantDuration(double mean) : mean_(mean) {
  require_seconds("timing.duration.mean", mean);
}

}  // namespace fbosim::timeline
