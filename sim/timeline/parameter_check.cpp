#include "sim/timeline/parameter_check.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::timeline {

void require_seconds(std::string_view key, double x) {
  if (!(x > 0 && x <= kMaxParameterSeconds))  // false for NaN
    throw std::invalid_argument(
        fmt::format("{} must be in (0, {:g}] seconds, got {}", key, kMaxParameterSeconds, x));
}

void require_seconds_or_zero(std::string_view key, double x) {
  if (!(x >= 0 && x <= kMaxParameterSeconds))
    throw std::invalid_argument(
        fmt::format("{} must be in [0, {:g}] seconds, got {}", key, kMaxParameterSeconds, x));
}

void require_above(std::string_view key, double x, double lo, std::string_view bound) {
  if (!std::isfinite(x) || !(x > lo))
    throw std::invalid_argument(
        fmt::format("{} must be a finite number > {}, got {}", key, bound, x));
}

}  // namespace fbosim::timeline
