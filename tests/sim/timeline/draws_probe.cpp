// Prints a hash of the bits of 10^6 raw draws (seconds, before the tick rule) of each duration
// model, of portable_log on 10^6 arguments and of 10^5 network latencies (seconds, before the tick
// rule; one stream per message) of each random latency model. NOT a test by itself:
// draws_same_bits.sh runs it with glibc's default (FMA) code paths and with them disabled and
// compares the outputs, which differ if any draw goes through glibc's log or exp (docs/TIME.md).
#include <bit>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/rng.hpp"
#include "sim/timeline/duration_factory.hpp"
#include "sim/timeline/message_delivery.hpp"
#include "sim/timeline/portable_log.hpp"

using namespace fbosim;
using namespace fbosim::timeline;

namespace {
std::uint64_t hash_draws(const DurationModel& m, std::uint64_t seed) {
  core::RngStream rng(seed);
  std::uint64_t h = 0;
  for (int i = 0; i < 1000000; ++i) h = core::mix64(h ^ std::bit_cast<std::uint64_t>(m.draw(rng)));
  return h;
}
}  // namespace

int main() {
  const DurationKind kinds[] = {DurationKind::uniform, DurationKind::half_normal,
                                DurationKind::exponential, DurationKind::lognormal,
                                DurationKind::pareto};
  for (const DurationKind k : kinds) {
    DurationSpec s;
    s.model = k;
    s.shape = 1.5;
    std::printf("%s %016llx\n", std::string(kDurationKindNames.name(k)).c_str(),
                static_cast<unsigned long long>(hash_draws(*make_duration_model(s), 1)));
  }
  core::RngStream rng(2);
  std::uint64_t h = 0;
  for (int i = 0; i < 1000000; ++i)
    h = core::mix64(h ^ std::bit_cast<std::uint64_t>(portable_log(1e-3 + 1e3 * rng.uniform())));
  std::printf("portable_log %016llx\n", static_cast<unsigned long long>(h));
  for (const LatencyKind k : {LatencyKind::uniform, LatencyKind::exponential}) {
    DeliverySpec d;
    d.latency = k;
    d.mean = 0.37;
    d.min = 0.01;
    d.max = 2.3;
    const MessageDelivery m(d, core::RngFactory(3, 0));
    h = 0;
    for (int i = 0; i < 100000; ++i)
      h = core::mix64(h ^ std::bit_cast<std::uint64_t>(m.latency_seconds(i % 100, i / 100)));
    std::printf("latency_%s %016llx\n", k == LatencyKind::uniform ? "uniform" : "exponential",
                static_cast<unsigned long long>(h));
  }
  return 0;
}
