#include <catch2/catch.hpp>

#include "algorithms/privacy/neighbour_relation.hpp"
#include "sim/run/release_charge.hpp"

using namespace fbosim;
using namespace fbosim::run;
using privacy::DpEvent;
using privacy::without_sampling;
using protocol::ScheduleKind;

TEST_CASE("without_sampling removes every sampling step and keeps the rest") {
  const DpEvent g = DpEvent::gaussian(1.3);
  CHECK(without_sampling(DpEvent::poisson_sampled(0.25, g)) == g);
  CHECK(without_sampling(DpEvent::fixed_sampled(2, 8, g)) == g);
  CHECK(without_sampling(g) == g);
  CHECK(without_sampling(DpEvent::noop()) == DpEvent::noop());
  // Adaptive clipping's release: the messages' and the count's subsampled Gaussians.
  const DpEvent adaptive = DpEvent::composed(
      {DpEvent::poisson_sampled(0.5, g), DpEvent::poisson_sampled(0.5, DpEvent::gaussian(5))});
  CHECK(without_sampling(adaptive) == DpEvent::composed({g, DpEvent::gaussian(5)}));
  CHECK(without_sampling(DpEvent::self_composed(DpEvent::poisson_sampled(0.1, g), 3)) ==
        DpEvent::self_composed(g, 3));
}

TEST_CASE("a buffered release charges its agents at q = 1, fixed instants keep the sampling") {
  const DpEvent sampled = DpEvent::poisson_sampled(0.25, DpEvent::gaussian(1));
  const ReleaseCharge b = release_charge(ScheduleKind::buffered, sampled, {0, 2});
  CHECK(b.event == DpEvent::gaussian(1));
  CHECK(b.agents == std::vector<int>{0, 2});
  for (const ScheduleKind k :
       {ScheduleKind::periodic, ScheduleKind::deadline, ScheduleKind::latest}) {
    const ReleaseCharge c = release_charge(k, sampled, {1});
    CHECK(c.event == sampled);
    CHECK(c.agents == std::vector<int>{1});
  }
  CHECK_THROWS_AS(release_charge(ScheduleKind::rounds, sampled, {0}), std::logic_error);
}
