#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "sim/timeline/tick.hpp"

using namespace fbosim::timeline;
using Catch::Matchers::Contains;

TEST_CASE("tick rule: seconds to microsecond ticks, rounded once to the nearest") {
  CHECK(kTicksPerSecond == 1'000'000);
  CHECK(duration_ticks(1.0, "d") == 1'000'000);
  CHECK(duration_ticks(0.25, "d") == 250'000);
  CHECK(time_ticks(1.4e-6, "t") == 1);
  CHECK(time_ticks(1.6e-6, "t") == 2);
  CHECK(time_ticks(0x1p-20, "t") == 1);  // 0.95367431640625 ticks exactly
  CHECK(time_ticks(0.0, "t") == 0);
  CHECK(time_ticks(3600.0 * 24 * 365, "t") == 31'536'000'000'000);
  // A duration is at least one tick; a time may be 0.
  CHECK(duration_ticks(0.0, "d") == 1);
  CHECK(duration_ticks(4e-7, "d") == 1);
}

TEST_CASE("tick rule: NaN, negative and past-the-end values are errors naming the key") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(duration_ticks(nan, "timing.duration"),
                    Contains("timing.duration: a duration of nan s is outside"));
  CHECK_THROWS_WITH(time_ticks(-1.0, "start"), Contains("start: a time of -1 s"));
  // 2^62 microseconds is about 4.61e12 s.
  CHECK_NOTHROW(time_ticks(4.6e12, "t"));
  CHECK_THROWS_WITH(time_ticks(4.7e12, "t"), Contains("the time line's end"));
  CHECK_THROWS_AS(duration_ticks(std::numeric_limits<double>::infinity(), "d"),
                  std::invalid_argument);
}
