#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "algorithms/privacy/gdp_accountant.hpp"

using namespace fbosim::privacy;

namespace {
double phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
}  // namespace

TEST_CASE("q = 1 is exact: T Gaussian steps are (sqrt(T)/z)-GDP") {
  // Independent: mu-GDP's delta(eps) written out with Phi (Dong, Roth, Su 2019, Cor. 2.13).
  for (double z : {0.8, 2.0})
    for (int steps : {1, 25}) {
      GdpAccountant acc;
      acc.compose(sampled_gaussian(Sampling::poisson, 1.0, z, 10), steps);
      const double mu = std::sqrt(steps) / z;
      CHECK(acc.mu() == Approx(mu));
      const double eps = acc.epsilon(1e-5).epsilon;
      CHECK(phi(-eps / mu + mu / 2) - std::exp(eps) * phi(-eps / mu - mu / 2) ==
            Approx(1e-5).epsilon(1e-6));
    }
}

TEST_CASE("the CLT mu of Bu et al. 2020, Fig. 4") {
  // p = 256/60000, sigma~ = 1.06, 20 epochs (4688 steps): mu_CLT = 0.35, (1.34, 1e-5)-DP.
  GdpAccountant acc;
  acc.compose(sampled_gaussian(Sampling::poisson, 256.0 / 60000, 1.06, 60000), 4688);
  CHECK(acc.mu() == Approx(0.35).margin(0.005));
  CHECK(acc.epsilon(1e-5).epsilon == Approx(1.34).margin(0.02));
}

TEST_CASE("gdp epsilon is monotone and refuses fixed sampling and bad parameters") {
  const auto eps = [](double q, double z, int t) {
    GdpAccountant a;
    a.compose(sampled_gaussian(Sampling::poisson, q, z, 200), t);
    return a.epsilon(1e-3).epsilon;
  };
  CHECK(eps(0.15, 1, 40) < eps(0.25, 1, 40));
  CHECK(eps(0.25, 1.5, 40) < eps(0.25, 1, 40));
  CHECK(eps(0.25, 1, 20) < eps(0.25, 1, 40));
  GdpAccountant a;
  CHECK_THROWS_AS(a.compose(sampled_gaussian(Sampling::fixed, 0.25, 1, 200)),
                  std::invalid_argument);
  CHECK_THROWS_AS(a.compose(sampled_gaussian(Sampling::poisson, 1.25, 1, 200)),
                  std::invalid_argument);
  CHECK_THROWS_AS(a.compose(sampled_gaussian(Sampling::poisson, 0.25, 0, 200)),
                  std::invalid_argument);
  a.compose(sampled_gaussian(Sampling::poisson, 0.25, 1, 200));
  CHECK_THROWS_AS(a.epsilon(0), std::invalid_argument);
}
