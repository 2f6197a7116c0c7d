// The audit of a buffered release (server::BufferedReleaseAudit, `fbosim audit`) claims what the
// run's ledger charges each agent in such a release (run::charged_event), for both samplings.
#include <catch2/catch.hpp>

#include "algorithms/server/buffered_release_audit.hpp"
#include "sim/run/release_charge.hpp"

using namespace fbosim;

TEST_CASE("a buffered release's audit claims what the run's ledger charges each agent in it") {
  for (const auto sampling : {privacy::Sampling::poisson, privacy::Sampling::fixed}) {
    server::DpMechanism::Options o;
    o.sampling = sampling;
    o.sampling_rate = 0.5;
    o.noise_multiplier = 1.5;
    const server::BufferedReleaseAudit release(o, 20, 50, 2, de::WeightSchedule::Options{}, 5, 10,
                                               {});
    CHECK(release.event() ==
          run::charged_event(protocol::ScheduleKind::buffered, server::DpMechanism::event(o, 50)));
    // Not the rounds' subsampled event: no amplification is claimed.
    CHECK_FALSE(release.event() == server::DpMechanism::event(o, 50));
  }
}
