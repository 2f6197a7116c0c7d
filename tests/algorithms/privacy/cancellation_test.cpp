// Ctrl-C stops long compositions and calibrations (`fbosim privacy --steps 1:1000000
// --accountant pld`) between steps (issue 24).
#include <catch2/catch.hpp>

#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/privacy/epsilon_series.hpp"
#include "algorithms/privacy/noise_calibration.hpp"
#include "algorithms/privacy/pld_distribution.hpp"
#include "core/cancellation.hpp"

using fbosim::core::Cancelled;
using namespace fbosim::privacy;

TEST_CASE("epsilon series, self-composition and calibration stop with Cancelled",
          "[cancellation]") {
  const DpEvent event = sampled_gaussian(Sampling::poisson, 0.01, 1.1, 0);
  const auto event_of = [](double z) { return sampled_gaussian(Sampling::poisson, 0.01, z, 0); };
  fbosim::core::request_cancellation();
  CHECK_THROWS_AS(epsilon_series("rdp", event, {1, 2, 3}, 1e-5), Cancelled);
  CHECK_THROWS_AS(calibrate_noise("rdp", event_of, 10, 1e-5, 1.0), Cancelled);
  const PldPmf point;  // all mass at loss 0
  CHECK_THROWS_AS(self_compose(point, 4, Bound::upper), Cancelled);
  fbosim::core::reset_cancellation();
  CHECK(epsilon_series("rdp", event, {1, 2, 3}, 1e-5).size() == 3);
}
