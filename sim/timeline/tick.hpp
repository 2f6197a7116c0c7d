#pragma once
// Simulated time in integer ticks (issue 41 sec. 1; DESIGN.md "Time, schedules and trust"):
// 1 tick = 1 microsecond of simulated time, an int64. The tick rule: every duration (and every
// time in a trace) is a double in seconds, drawn through the reproducible functions of
// reproducible_draws.hpp, then converted to ticks ONCE by duration_ticks / time_ticks (one IEEE
// multiplication by 10^6, then round to nearest, half away from zero). Everything after that
// (starts, completions, waits, online intervals) is exact integer arithmetic, so every x86-64
// CPU gives the same event times and the same order.
#include <cstdint>
#include <string_view>

namespace fbosim::timeline {

using Tick = std::int64_t;

inline constexpr Tick kTicksPerSecond = 1'000'000;
/// The end of the time line, 2^62 ticks (about 146,000 years): no event happens at or after it,
/// and a sum of two times below it cannot overflow an int64.
inline constexpr Tick kEndOfTime = Tick{1} << 62;

/// A duration of `seconds` in ticks: rounded to the nearest tick, and at least 1 tick (a
/// zero-length evaluation would let an agent complete without end at one instant). Throws
/// std::invalid_argument naming `what` for NaN, a negative value or one at or past kEndOfTime.
Tick duration_ticks(double seconds, std::string_view what);
/// A point in time of `seconds` (>= 0) in ticks, rounded to the nearest tick (0 stays 0); the
/// same errors.
Tick time_ticks(double seconds, std::string_view what);
/// Ticks as seconds (exact for ticks below 2^53), for messages and outputs.
inline double seconds(Tick t) { return static_cast<double>(t) / kTicksPerSecond; }

}  // namespace fbosim::timeline
