#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/noise_calibration.hpp"

using namespace fbosim::privacy;

namespace {
double epsilon_of(double q, double z, int steps, double delta) {
  auto acc = make_accountant("moments");
  acc->compose(DpEvent{q, z, Sampling::poisson, 200}, steps);
  return acc->epsilon(delta).epsilon;
}
const double kDelta = std::pow(200.0, -1.1);
}  // namespace

TEST_CASE("calibration inverts the paper's epsilon: z = 1 gives 9.9085, so 9.9085 gives z ~ 1") {
  // Independent anchor: the paper's printed epsilon 9.91 at q = 0.25, z = 1, T = 40.
  const double eps_at_1 = epsilon_of(0.25, 1.0, 40, kDelta);
  const Calibration c =
      calibrate_noise("moments", {0.25, 0, Sampling::poisson, 200}, 40, kDelta, eps_at_1 + 1e-9);
  CHECK(c.noise_multiplier == Approx(1.0).epsilon(1e-5));
  CHECK(c.epsilon <= eps_at_1 + 1e-9);
}

TEST_CASE("the calibrated z reaches the target and a slightly smaller z does not") {
  for (double target : {1.0, 3.0, 8.0}) {
    const Calibration c =
        calibrate_noise("moments", {0.15, 0, Sampling::poisson, 200}, 60, kDelta, target);
    CHECK(c.epsilon <= target);
    CHECK(epsilon_of(0.15, c.noise_multiplier, 60, kDelta) == Approx(c.epsilon));
    CHECK(epsilon_of(0.15, c.noise_multiplier * (1 - 1e-4), 60, kDelta) > target);
  }
}

TEST_CASE("a smaller target needs more noise") {
  const DpEvent e{0.25, 0, Sampling::poisson, 200};
  CHECK(calibrate_noise("moments", e, 40, kDelta, 2.0).noise_multiplier >
        calibrate_noise("moments", e, 40, kDelta, 4.0).noise_multiplier);
}

TEST_CASE("calibration refuses a non-positive target and zero steps") {
  const DpEvent e{0.25, 0, Sampling::poisson, 200};
  CHECK_THROWS_AS(calibrate_noise("moments", e, 40, kDelta, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(calibrate_noise("moments", e, 0, kDelta, 1.0), std::invalid_argument);
}
