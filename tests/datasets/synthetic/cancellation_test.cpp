// Ctrl-C stops drawing the synthetic families between rows of the prior and between agents
// (a 10^4-point heterogeneous prior: issue 24).
#include <catch2/catch.hpp>

#include "datasets/synthetic/grid_gp_sampler.hpp"
#include "datasets/synthetic/synthetic_family.hpp"
#include "core/cancellation.hpp"

using fbosim::core::Cancelled;
using fbosim::core::RngFactory;
using fbosim::datasets::GridGpSampler;
using fbosim::datasets::SyntheticFamily;
using fbosim::datasets::SyntheticSpec;

TEST_CASE("the grid prior and the agents' functions stop with Cancelled") {
  SyntheticSpec spec;
  spec.family = "heterogeneous";
  spec.grid_points = 100;
  const SyntheticFamily family(spec);  // built before the request
  fbosim::core::request_cancellation();
  CHECK_THROWS_AS(GridGpSampler(100, 0.03), Cancelled);
  CHECK_THROWS_AS(family.make(3, RngFactory(1, 0)), Cancelled);
  fbosim::core::reset_cancellation();
  CHECK(family.make(3, RngFactory(1, 0)).size() == 3);
}
