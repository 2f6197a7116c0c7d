#include <catch2/catch.hpp>

#include <cmath>
#include <optional>

#include "core/rng.hpp"
#include "sim/timeline/always_online.hpp"
#include "sim/timeline/on_off_availability.hpp"

using namespace fbosim::timeline;
using Catch::Matchers::Contains;
using fbosim::core::RngFactory;

TEST_CASE("availability: always online is one interval for ever") {
  const AlwaysOnline a;
  CHECK(a.interval(3, 0, {}) == Interval{0, kEndOfTime});
  CHECK_FALSE(a.interval(3, 1, Interval{0, kEndOfTime}).has_value());
}

TEST_CASE("availability: fixed on/off periods, each agent at a uniform phase") {
  const OnOffAvailability a(AvailabilityKind::fixed, 2.0, 3.0, RngFactory(5, 0));
  const int agents = 20000;
  int online_at_zero = 0;
  for (int n = 0; n < agents; ++n) {
    Interval i = *a.interval(n, 0, {});
    CHECK(i.start >= 0);
    CHECK(i.start <= 3'000'000);
    CHECK(i.end - i.start <= 2'000'000);
    online_at_zero += i.start == 0;
    if (i.start > 0) CHECK(i.end - i.start == 2'000'000);
    for (int j = 1; j < 4; ++j) {
      const Interval next = *a.interval(n, j, i);
      CHECK(next.start == i.end + 3'000'000);
      CHECK(next.end == next.start + 2'000'000);
      i = next;
    }
  }
  // Online at time 0 with probability on / (on + off) = 0.4; 4 standard errors.
  CHECK(std::fabs(online_at_zero / double(agents) - 0.4) < 4 * std::sqrt(0.24 / agents));
}

TEST_CASE("availability: exponential on/off periods, stationary at time 0") {
  const OnOffAvailability a(AvailabilityKind::exponential, 2.0, 3.0, RngFactory(5, 0));
  const int agents = 20000;
  int online_at_zero = 0;
  double on_sum = 0, off_sum = 0;
  int periods = 0;
  for (int n = 0; n < agents; ++n) {
    Interval i = *a.interval(n, 0, {});
    online_at_zero += i.start == 0;
    for (int j = 1; j < 5; ++j) {
      const Interval next = *a.interval(n, j, i);
      CHECK(next.start > i.end);
      CHECK(next.end > next.start);
      off_sum += seconds(next.start - i.end);
      on_sum += seconds(next.end - next.start);
      ++periods;
      i = next;
    }
  }
  CHECK(std::fabs(online_at_zero / double(agents) - 0.4) < 4 * std::sqrt(0.24 / agents));
  // Exp means 2 and 3 s: standard errors 2 / sqrt(periods) and 3 / sqrt(periods).
  CHECK(std::fabs(on_sum / periods - 2.0) < 4 * 2.0 / std::sqrt(periods));
  CHECK(std::fabs(off_sum / periods - 3.0) < 4 * 3.0 / std::sqrt(periods));
  // The same streams give the same periods; another agent's do not.
  const OnOffAvailability b(AvailabilityKind::exponential, 2.0, 3.0, RngFactory(5, 0));
  CHECK(*a.interval(7, 0, {}) == *b.interval(7, 0, {}));
  CHECK(*a.interval(7, 3, Interval{0, 10}) == *b.interval(7, 3, Interval{0, 10}));
}

TEST_CASE("availability: bad periods are errors naming the key and the value") {
  CHECK_THROWS_WITH(OnOffAvailability(AvailabilityKind::fixed, 0.0, 1.0, RngFactory(1, 0)),
                    "timing.availability.on must be in (0, 1e+09] seconds, got 0");
  CHECK_THROWS_WITH(OnOffAvailability(AvailabilityKind::exponential, 1.0, -3, RngFactory(1, 0)),
                    Contains("timing.availability.off") && Contains("got -3"));
}
