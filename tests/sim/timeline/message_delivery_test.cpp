// The network on the clock (timeline::MessageDelivery; docs/TIME.md, "The network on the clock"):
// which messages are lost and when they arrive, against the streams drawn here by hand, and the
// fraction lost against p over many messages.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/rng.hpp"
#include "sim/timeline/message_delivery.hpp"

using namespace fbosim;
using namespace fbosim::timeline;
using Catch::Matchers::Contains;

namespace {
DeliverySpec dropout_of(double p) {
  DeliverySpec d;
  d.dropout = p;
  return d;
}
}  // namespace

TEST_CASE("message delivery: no latency and no dropout deliver every message at its completion") {
  const MessageDelivery m(DeliverySpec{}, core::RngFactory(1, 0));
  for (int n = 0; n < 5; ++n)
    for (std::int64_t k = 0; k < 5; ++k) {
      CHECK_FALSE(m.lost(n, k));
      CHECK(m.latency(n, k) == 0);
      CHECK(m.arrival(n, k, 1234567) == 1234567);
    }
}

TEST_CASE("message delivery: a constant latency is the same for every message, in ticks") {
  DeliverySpec d;
  d.mean = 0.25;
  const MessageDelivery m(d, core::RngFactory(1, 0));
  for (int n = 0; n < 3; ++n)
    for (std::int64_t k = 0; k < 3; ++k) CHECK(m.arrival(n, k, 1'000'000) == 1'250'000);
  // Rounded to the nearest microsecond, half away from zero (the tick rule).
  d.mean = 2.5e-6;
  CHECK(MessageDelivery(d, core::RngFactory(1, 0)).latency(0, 0) == 3);
}

TEST_CASE("message delivery: which messages are lost, given the stream network.dropout (n, k)") {
  const double p = 0.3;
  const core::RngFactory streams(7, 2);
  const MessageDelivery m(dropout_of(p), streams);
  int lost = 0;
  for (int n = 0; n < 4; ++n)
    for (std::int64_t k = 0; k < 6; ++k) {
      // One uniform per message from its own stream, lost below p.
      core::RngStream rng = streams.stream("network.dropout", static_cast<std::uint64_t>(n),
                                           static_cast<std::uint64_t>(k));
      const bool want = rng.uniform() < p;
      CHECK(m.lost(n, k) == want);
      CHECK(m.arrival(n, k, 10).has_value() == !want);
      lost += want ? 1 : 0;
    }
  // The case is not degenerate: some lost, some not.
  CHECK(lost > 0);
  CHECK(lost < 24);
  // Another run's streams lose other messages.
  const MessageDelivery other(dropout_of(p), core::RngFactory(7, 3));
  int differ = 0;
  for (int n = 0; n < 4; ++n)
    for (std::int64_t k = 0; k < 6; ++k) differ += m.lost(n, k) != other.lost(n, k) ? 1 : 0;
  CHECK(differ > 0);
}

TEST_CASE("message delivery: the fraction lost is p within 4 standard errors") {
  for (const double p : {0.01, 0.2, 0.5, 0.9}) {
    INFO(p);
    const MessageDelivery m(dropout_of(p), core::RngFactory(11, 0));
    const int agents = 200, evaluations = 500;
    int lost = 0;
    for (int n = 0; n < agents; ++n)
      for (std::int64_t k = 0; k < evaluations; ++k) lost += m.lost(n, k) ? 1 : 0;
    const double count = agents * evaluations;
    const double se = std::sqrt(p * (1 - p) / count);
    CHECK(std::abs(lost / count - p) < 4 * se);
  }
}

TEST_CASE("message delivery: uniform and exponential latencies from network.latency (n, k)") {
  const core::RngFactory streams(5, 1);
  DeliverySpec u;
  u.latency = LatencyKind::uniform;
  u.min = 0.5;
  u.max = 2.0;
  const MessageDelivery uniform(u, streams);
  for (int n = 0; n < 3; ++n)
    for (std::int64_t k = 0; k < 3; ++k) {
      core::RngStream rng = streams.stream("network.latency", static_cast<std::uint64_t>(n),
                                           static_cast<std::uint64_t>(k));
      const double want = 0.5 + 1.5 * rng.uniform();
      CHECK(uniform.latency_seconds(n, k) == want);
      CHECK(uniform.latency(n, k) == std::llround(want * 1e6));
    }
  // Exponential of mean 0.4 s: the sample mean of 10^5 messages within 4 standard errors
  // (the standard deviation is the mean) and every latency >= 0.
  DeliverySpec e;
  e.latency = LatencyKind::exponential;
  e.mean = 0.4;
  const MessageDelivery exponential(e, streams);
  const int count = 100000;
  double sum = 0;
  for (int i = 0; i < count; ++i) {
    const double x = exponential.latency_seconds(i % 100, i / 100);
    REQUIRE(x >= 0);
    sum += x;
  }
  CHECK(std::abs(sum / count - 0.4) < 4 * 0.4 / std::sqrt(count));
  // The dropout stream is another: a latency model does not change which messages are lost.
  e.dropout = 0.5;
  const MessageDelivery both(e, streams);
  const MessageDelivery drop_only(dropout_of(0.5), streams);
  for (int n = 0; n < 20; ++n) CHECK(both.lost(n, 3) == drop_only.lost(n, 3));
}

TEST_CASE("message delivery: parameters outside their ranges are errors naming the key") {
  DeliverySpec d;
  d.mean = 2e9;
  CHECK_THROWS_WITH(MessageDelivery(d, core::RngFactory(1, 0)),
                    Contains("network.latency.mean must be in [0, 1e+09] seconds, got 2000000000"));
  d = {};
  d.latency = LatencyKind::uniform;
  d.min = 2;
  d.max = 1;
  CHECK_THROWS_WITH(MessageDelivery(d, core::RngFactory(1, 0)),
                    Contains("network.latency.max must be >= network.latency.min"));
  d = {};
  d.dropout = 1;
  CHECK_THROWS_WITH(MessageDelivery(d, core::RngFactory(1, 0)),
                    Contains("network.dropout must be in [0, 1), got 1"));
  d.dropout = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(MessageDelivery(d, core::RngFactory(1, 0)), std::invalid_argument);
  // An arrival at or after the time line's end.
  d = {};
  d.mean = 1e9;
  CHECK_THROWS_AS(MessageDelivery(d, core::RngFactory(1, 0)).arrival(0, 0, kEndOfTime - 10),
                  std::overflow_error);
}
