// The time line's cost per event (issue 41 "Performance and scale": events in O(log n)). NOT a
// test: run by hand under `valgrind --tool=callgrind` for instruction counts; the cost of one
// event is the difference of two runs' totals divided by the difference of their event counts
// (docs/TIME.md, "Cost").
//   bench_timeline <agents> <events> <constant|lognormal> <always|exponential>
// constant durations seed no stream (the heap alone); lognormal seeds one stream per
// evaluation ("timing.duration", agent, evaluation); exponential availability one per online
// interval. Prints the last completion and a checksum of all of them.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "core/rng.hpp"
#include "sim/timeline/timeline.hpp"

using namespace fbosim;
using namespace fbosim::timeline;

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr,
                 "usage: bench_timeline <agents> <events> <constant|lognormal> "
                 "<always|exponential>\n");
    return 2;
  }
  const int agents = std::atoi(argv[1]);
  const long events = std::atol(argv[2]);
  TimingSpec s;
  if (std::string(argv[3]) == "lognormal") {
    s.duration.model = DurationKind::lognormal;
    s.duration.sigma = 0.5;
  }
  if (std::string(argv[4]) == "exponential") {
    s.availability.model = AvailabilityKind::exponential;
    s.availability.on = 10.0;
    s.availability.off = 5.0;
  }
  Timeline t(TimingModel::from_spec(s, agents, core::RngFactory(1, 0)));
  std::uint64_t checksum = 0;
  std::optional<Completion> last;
  for (long i = 0; i < events; ++i) {
    last = t.next();
    if (!last) break;
    checksum = core::mix64(checksum ^ static_cast<std::uint64_t>(last->time) ^
                           (static_cast<std::uint64_t>(last->agent) << 40));
  }
  if (last)
    std::printf("agents %d events %ld last t=%.6f s agent %d checksum %016llx\n", agents, events,
                seconds(last->time), last->agent, static_cast<unsigned long long>(checksum));
  return 0;
}
