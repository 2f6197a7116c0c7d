#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/acquisition/scores.hpp"

using fbosim::acq::expected_improvement;
using fbosim::acq::ScoreGrad;
using fbosim::acq::ucb;

namespace {
// E[max(F - a, 0)] for F ~ N(mean, var) by composite Simpson over [a, mean + 14 s]
// (independent of the closed form).
double ei_quadrature(double mean, double var, double a) {
  const double s = std::sqrt(var);
  const double lo = std::max(a, mean - 14 * s), hi = mean + 14 * s;
  if (hi <= lo) return 0.0;
  const int n = 20000;  // even
  const double h = (hi - lo) / n;
  auto g = [&](double t) {
    const double z = (t - mean) / s;
    return (t - a) * std::exp(-0.5 * z * z) / (s * std::sqrt(2 * M_PI));
  };
  double sum = g(lo) + g(hi);
  for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * g(lo + i * h);
  return sum * h / 3.0;
}
}  // namespace

TEST_CASE("EI closed-form values: var = 0, mean = best, quadrature, the far tail") {
  // var -> 0: max(mean - best - xi, 0).
  CHECK(expected_improvement(1.5, 0.0, 1.0).value == 0.5);
  CHECK(expected_improvement(0.5, 0.0, 1.0).value == 0.0);
  CHECK(expected_improvement(1.5, 0.0, 1.0, 0.2).value == Approx(0.3).epsilon(1e-15));
  CHECK(expected_improvement(1.5, 1e-30, 1.0).value == Approx(0.5).epsilon(1e-14));
  CHECK(expected_improvement(0.5, 1e-30, 1.0).value == 0.0);
  // mean = best: sigma / sqrt(2 pi).
  for (double var : {1e-4, 0.3, 2.0, 50.0})
    CHECK(expected_improvement(0.7, var, 0.7).value ==
          Approx(std::sqrt(var) / std::sqrt(2 * M_PI)).epsilon(1e-14));
  // General values against numerical integration of E[max(F - best - xi, 0)].
  for (auto [mean, var, best, xi] :
       {std::tuple{0.2, 0.5, 0.0, 0.0}, std::tuple{-1.0, 0.04, 0.1, 0.05},
        std::tuple{3.0, 1.0, 1.0, 0.0}, std::tuple{0.0, 2.5, 4.0, 0.1}})
    CHECK(expected_improvement(mean, var, best, xi).value ==
          Approx(ei_quadrature(mean, var, best + xi)).epsilon(1e-9).margin(1e-14));
  // Far lower tail, z = -30: EI = s phi(z) (1/z^2 - 3/z^4 + 15/z^6 - 105/z^8 + 945/z^10)
  // (Mills-ratio asymptotics; the next term is below 1e-12 relative).
  const double z = -30.0, s = 0.5;
  const double phi = std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI);
  const double series = 1 / (z * z) - 3 / std::pow(z, 4) + 15 / std::pow(z, 6) -
                        105 / std::pow(z, 8) + 945 / std::pow(z, 10);
  CHECK(expected_improvement(z * s, s * s, 0.0).value == Approx(s * phi * series).epsilon(1e-9));
}

TEST_CASE("EI and UCB derivatives match central differences") {
  const double h = 1e-6;
  for (auto [mean, var] : {std::pair{0.3, 0.2}, std::pair{-0.5, 1.5}, std::pair{2.0, 0.01}}) {
    const ScoreGrad e = expected_improvement(mean, var, 0.4, 0.02);
    CHECK(e.d_mean == Approx((expected_improvement(mean + h, var, 0.4, 0.02).value -
                              expected_improvement(mean - h, var, 0.4, 0.02).value) /
                             (2 * h))
                          .epsilon(1e-6)
                          .margin(1e-9));
    CHECK(e.d_var == Approx((expected_improvement(mean, var + h, 0.4, 0.02).value -
                             expected_improvement(mean, var - h, 0.4, 0.02).value) /
                            (2 * h))
                         .epsilon(1e-6)
                         .margin(1e-9));
    const ScoreGrad u = ucb(mean, var, 2.5);
    CHECK(u.d_mean == 1.0);
    CHECK(u.d_var ==
          Approx((ucb(mean, var + h, 2.5).value - ucb(mean, var - h, 2.5).value) / (2 * h))
              .epsilon(1e-6));
  }
  CHECK(ucb(1.0, 0.0, 4.0).d_var == 0.0);  // not differentiable at var = 0: reported flat
  CHECK(expected_improvement(1.0, 0.0, 0.5).d_mean == 1.0);
  CHECK(expected_improvement(0.0, 0.0, 0.5).d_mean == 0.0);
}

TEST_CASE("UCB is mean + sqrt(beta var), the vector forms equal the scalar ones") {
  CHECK(ucb(1.0, 4.0, 9.0).value == 7.0);
  CHECK(ucb(-2.0, 0.25, 0.0).value == -2.0);
  CHECK(ucb(0.5, 2.0, 2.0).value == Approx(2.5).epsilon(1e-15));
  const Eigen::VectorXd mean = (Eigen::VectorXd(4) << 0.1, -0.3, 2.0, 0.0).finished();
  const Eigen::VectorXd var = (Eigen::VectorXd(4) << 0.5, 0.0, 1e-3, 3.0).finished();
  const Eigen::VectorXd u = ucb(mean, var, 1.7), e = expected_improvement(mean, var, 0.2, 0.01);
  for (int j = 0; j < 4; ++j) {
    CHECK(u[j] == ucb(mean[j], var[j], 1.7).value);
    CHECK(e[j] == expected_improvement(mean[j], var[j], 0.2, 0.01).value);
  }
  CHECK_THROWS_AS(ucb(0.0, -1e-3, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(ucb(0.0, 1.0, -1.0), std::invalid_argument);
  CHECK_THROWS_AS(expected_improvement(0.0, NAN, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(ucb(mean, var.head(3), 1.0), std::invalid_argument);
}
