#include "sim/timeline/tick.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::timeline {

namespace {
Tick round_to_ticks(double seconds, std::string_view what, std::string_view noun) {
  const double x = seconds * static_cast<double>(kTicksPerSecond);
  // !(x >= 0) also catches NaN.
  if (!(x >= 0) || !(x < static_cast<double>(kEndOfTime)))
    throw std::invalid_argument(
        fmt::format("{}: {} of {:g} s is outside [0, {:.0f}) s (the time "
                    "line's end, 2^62 ticks of 1 microsecond)",
                    what, noun, seconds, static_cast<double>(kEndOfTime) / kTicksPerSecond));
  return static_cast<Tick>(std::llround(x));  // exact below 2^62
}
}  // namespace

Tick time_ticks(double seconds, std::string_view what) {
  return round_to_ticks(seconds, what, "a time");
}

Tick duration_ticks(double seconds, std::string_view what) {
  const Tick t = round_to_ticks(seconds, what, "a duration");
  return t < 1 ? 1 : t;
}

}  // namespace fbosim::timeline
