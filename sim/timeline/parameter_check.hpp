#pragma once
// The parameter checks of the timing models: a std::invalid_argument naming the key and the
// value ("timing.duration.sigma must be a finite number > 0, got -1").
#include <string_view>

namespace fbosim::timeline {

/// The largest time parameter, in seconds (about 31.7 years), far below the time line's end.
inline constexpr double kMaxParameterSeconds = 1e9;

/// Throws unless x (seconds) is in (0, kMaxParameterSeconds].
void require_seconds(std::string_view key, double x);
/// Throws unless x (seconds) is in [0, kMaxParameterSeconds].
void require_seconds_or_zero(std::string_view key, double x);
/// Throws unless x is finite and > lo (the bound written `bound` in the message).
void require_above(std::string_view key, double x, double lo, std::string_view bound);

}  // namespace fbosim::timeline
