// The canary's test geometry both release audits share, against values worked by hand.
#include <catch2/catch.hpp>

#include "algorithms/server/canary_geometry.hpp"

using fbosim::server::canary_geometry;
using fbosim::server::canary_statistic;

TEST_CASE(
    "canary_geometry: w_c / sigma^2 scaled to max 1, the message on the bound along 1/sqrt(M)") {
  Eigen::MatrixXd w(2, 3);
  w << 0.1, 0.6, 0.3,  //
      0.2, 0.8, 0.0;
  // Canary 1: 0.6 / 1^2 = 0.6 and 0.8 / 2^2 = 0.2, scaled by 0.6: 1 and 1/3.
  const auto g = canary_geometry(w, 1, {1.0, 2.0}, 3.0, 4);
  REQUIRE(g.coef.size() == 2);
  CHECK(g.coef[0] == Approx(1.0));
  CHECK(g.coef[1] == Approx(1.0 / 3.0));
  REQUIRE(g.direction.size() == 4);
  for (int k = 0; k < 4; ++k) {
    CHECK(g.direction[k] == Approx(0.5));  // 1 / sqrt(4)
    CHECK(g.message[k] == Approx(1.5));    // 3 x 0.5
    CHECK(g.opposite[k] == Approx(-1.5));
  }
}

TEST_CASE("canary_statistic: sum over sub-regions with coef > 0 of coef_i <omega_i, v>") {
  Eigen::VectorXd coef(3), v(2);
  coef << 1.0, 0.0, 0.5;
  v << 1.0, -1.0;
  const std::vector<Eigen::VectorXd> omegas = {Eigen::Vector2d(3.0, 1.0),    // <., v> = 2
                                               Eigen::Vector2d(100.0, 0.0),  // coef 0: left out
                                               Eigen::Vector2d(-1.0, 3.0)};  // <., v> = -4
  CHECK(canary_statistic(coef, v, omegas) == Approx(1.0 * 2 + 0.5 * -4));
}
