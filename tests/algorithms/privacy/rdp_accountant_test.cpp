#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "algorithms/privacy/moments_accountant.hpp"
#include "algorithms/privacy/rdp_accountant.hpp"

using namespace fbosim::privacy;

namespace {
const double kDelta200 = std::pow(200.0, -1.1);

double rdp_epsilon(double q, double z, int steps, double delta,
                   RdpAccountant::Conversion c = RdpAccountant::Conversion::improved) {
  RdpAccountant acc(c);
  acc.compose(sampled_gaussian(Sampling::poisson, q, z, 200), steps);
  return acc.epsilon(delta).epsilon;
}

// Independent order-alpha RDP of the Poisson-subsampled Gaussian for a real alpha by numerical
// integration of E_{x ~ N(0, z^2)} [((1 - q) + q e^{(2x - 1) / (2 z^2)})^alpha] (the definition,
// MTZ 2019 eq. (1)); trapezoid rule on a wide grid in long double.
double integrated_rdp(double q, double z, double alpha) {
  long double sum = 0;
  const long double h = 1e-3L, lo = -40.0L * z, hi = 40.0L * z + 40;
  for (long double x = lo; x <= hi; x += h) {
    const long double density = std::exp(-x * x / (2.0L * z * z)) / std::sqrt(2 * M_PI * z * z);
    const long double ratio = (1 - q) + q * std::exp((2 * x - 1) / (2.0L * z * z));
    sum += density * std::pow(ratio, static_cast<long double>(alpha)) * h;
  }
  return static_cast<double>(std::log(sum) / (alpha - 1));
}
}  // namespace

TEST_CASE("q = 1 gives the Gaussian mechanism's RDP alpha / (2 z^2) at every order") {
  for (double alpha : {1.5, 2.0, 3.0, 7.3, 32.0})
    for (double z : {0.5, 1.0, 2.0})
      CHECK(RdpAccountant::poisson_rdp(1.0, z, alpha) == Approx(alpha / (2 * z * z)));
}

TEST_CASE("orders 2 and 3 match the closed forms of the binomial expansion") {
  for (double q : {0.01, 0.25, 0.6})
    for (double z : {0.8, 1.0, 2.5}) {
      const double e = std::exp(1 / (z * z));
      // alpha = 2: log(1 + q^2 (e^{1/z^2} - 1)).
      CHECK(RdpAccountant::poisson_rdp(q, z, 2) == Approx(std::log1p(q * q * (e - 1))));
      // alpha = 3: log((1-q)^3 + 3(1-q)^2 q + 3(1-q) q^2 e^{1/z^2} + q^3 e^{3/z^2}) / 2.
      const double a3 = std::pow(1 - q, 3) + 3 * std::pow(1 - q, 2) * q + 3 * (1 - q) * q * q * e +
                        std::pow(q, 3) * std::pow(e, 3);
      CHECK(RdpAccountant::poisson_rdp(q, z, 3) == Approx(std::log(a3) / 2));
    }
}

TEST_CASE("fractional orders agree with the integral definition and join the integer ones") {
  for (double alpha : {1.5, 2.5, 4.7, 10.2})
    for (double q : {0.1, 0.35})
      for (double z : {1.0, 1.6}) {
        INFO("alpha " << alpha << " q " << q << " z " << z);
        CHECK(RdpAccountant::poisson_rdp(q, z, alpha) ==
              Approx(integrated_rdp(q, z, alpha)).epsilon(1e-6));
      }
  // Continuity across an integer: the fractional series just above 3 meets the binomial sum.
  CHECK(RdpAccountant::poisson_rdp(0.25, 1.0, 3.0 + 1e-7) ==
        Approx(RdpAccountant::poisson_rdp(0.25, 1.0, 3.0)).epsilon(1e-5));
}

TEST_CASE("rdp epsilon grows with q and T and shrinks with z") {
  CHECK(rdp_epsilon(0.15, 1, 40, kDelta200) < rdp_epsilon(0.25, 1, 40, kDelta200));
  CHECK(rdp_epsilon(0.25, 1, 40, kDelta200) < rdp_epsilon(0.5, 1, 40, kDelta200));
  CHECK(rdp_epsilon(0.25, 1.5, 40, kDelta200) < rdp_epsilon(0.25, 1.2, 40, kDelta200));
  CHECK(rdp_epsilon(0.25, 1, 20, kDelta200) < rdp_epsilon(0.25, 1, 40, kDelta200));
}

TEST_CASE("rdp is at most the paper's moments accountant on the paper's settings") {
  for (double q : {0.15, 0.25, 0.5})
    for (double z : {1.0, 1.2, 1.5}) {
      MomentsAccountant m;
      m.compose(sampled_gaussian(Sampling::poisson, q, z, 200), 40);
      CHECK(rdp_epsilon(q, z, 40, kDelta200) <= m.epsilon(kDelta200).epsilon);
    }
}

TEST_CASE("published DP-SGD values") {
  // Abadi et al. 2016, Sec. 3.1: q = 0.01, sigma = 4, delta = 1e-5, T = 10000 steps gives
  // epsilon ~ 1.26 with the moments accountant (classic conversion, integer orders).
  CHECK(rdp_epsilon(0.01, 4, 10000, 1e-5, RdpAccountant::Conversion::classic) ==
        Approx(1.26).margin(0.01));
  // Bu, Dong, Long, Su 2020 (HDSR), Fig. 4: p = 256/60000, sigma = 1.3, 20 epochs
  // (4688 steps), delta = 1e-5: "(1.34, 1e-5)-DP" from TF-Privacy's accountant (fractional
  // orders, classic conversion). The caption's digits are those of a value in [1.34, 1.35).
  const double bu = rdp_epsilon(256.0 / 60000, 1.3, 4688, 1e-5, RdpAccountant::Conversion::classic);
  CHECK(bu >= 1.34);
  CHECK(bu < 1.35);
  // TensorFlow Privacy tutorials/README.md ("Select Parameters"): N = 60000, batch 256,
  // delta = 1e-5, steps = epochs * (60000 // 256), classic conversion; printed epsilons
  // 2.92 (z = 1.12, 60 epochs) and 1.20 (z = 1.2, 10 epochs).
  CHECK(std::abs(
            rdp_epsilon(256.0 / 60000, 1.12, 60 * 234, 1e-5, RdpAccountant::Conversion::classic) -
            2.92) <= 0.005);
  CHECK(
      std::abs(rdp_epsilon(256.0 / 60000, 1.2, 10 * 234, 1e-5, RdpAccountant::Conversion::classic) -
               1.20) <= 0.005);
  // The improved conversion is never worse.
  CHECK(rdp_epsilon(256.0 / 60000, 1.3, 4688, 1e-5) <
        rdp_epsilon(256.0 / 60000, 1.3, 4688, 1e-5, RdpAccountant::Conversion::classic));
}

TEST_CASE("mixed rounds compose exactly: the sum of their RDP curves, in any order") {
  RdpAccountant a, b, c;
  a.compose(sampled_gaussian(Sampling::poisson, 0.25, 1.0, 200), 10);
  a.compose(sampled_gaussian(Sampling::poisson, 0.5, 2.0, 200), 10);
  for (int i = 0; i < 10; ++i) {
    b.compose(sampled_gaussian(Sampling::poisson, 0.5, 2.0, 200));
    b.compose(sampled_gaussian(Sampling::poisson, 0.25, 1.0, 200));
  }
  CHECK(a.epsilon(1e-5).epsilon == Approx(b.epsilon(1e-5).epsilon).epsilon(1e-12));
  CHECK(a.steps() == 20);
  c.compose(sampled_gaussian(Sampling::poisson, 0.25, 1.0, 200), 10);
  CHECK(c.epsilon(1e-5).epsilon < a.epsilon(1e-5).epsilon);
}

TEST_CASE("fixed-size sampling: Wang-Balle-Kasiviswanathan bound at integer orders") {
  // Sensitivity 2 under replace-one: base RDP 2 alpha / z^2. All agents selected (m = N):
  // exactly the base mechanism.
  CHECK(RdpAccountant::fixed_rdp(1.0, 2.0, 5) == Approx(2.0 * 5 / 4));
  // alpha = 2: the bound is log(1 + gamma^2 min{4(e^{eps2} - 1), 2 e^{eps2}}) (Thm. 9).
  const double gamma = 0.1, z = 3.0, eps2 = 2.0 * 2 / (z * z);
  CHECK(RdpAccountant::fixed_rdp(gamma, z, 2) ==
        Approx(std::log1p(gamma * gamma * std::min(4 * std::expm1(eps2), 2 * std::exp(eps2)))));
  // Never above the base mechanism, and growing with gamma.
  for (int alpha : {2, 3, 8, 32}) {
    CHECK(RdpAccountant::fixed_rdp(0.3, 1.0, alpha) <= 2.0 * alpha / 1.0 + 1e-12);
    CHECK(RdpAccountant::fixed_rdp(0.1, 1.0, alpha) < RdpAccountant::fixed_rdp(0.3, 1.0, alpha));
  }
  RdpAccountant acc;
  acc.compose(sampled_gaussian(Sampling::fixed, 0.25, 1.0, 29), 40);
  const EpsilonResult r = acc.epsilon(0.01);
  CHECK(std::isfinite(r.epsilon));
  CHECK(r.order == std::round(r.order));  // only integer orders are defined
}

TEST_CASE("bad parameters are clear errors") {
  RdpAccountant acc;
  CHECK_THROWS_AS(acc.compose(sampled_gaussian(Sampling::poisson, 0.0, 1.0, 10)),
                  std::invalid_argument);
  CHECK_THROWS_AS(acc.compose(sampled_gaussian(Sampling::poisson, 1.5, 1.0, 10)),
                  std::invalid_argument);
  CHECK_THROWS_AS(acc.compose(sampled_gaussian(Sampling::poisson, 0.5, 0.0, 10)),
                  std::invalid_argument);
  CHECK_THROWS_AS(acc.compose(sampled_gaussian(Sampling::poisson, 0.5, 1.0, 10), -1),
                  std::invalid_argument);
  CHECK_THROWS_AS(acc.compose(sampled_gaussian(Sampling::fixed, 0.01, 1.0, 10)),
                  std::invalid_argument);
  CHECK_THROWS_AS(acc.compose(sampled_gaussian(Sampling::fixed, 0.5, 1.0, 0)),
                  std::invalid_argument);
  acc.compose(sampled_gaussian(Sampling::poisson, 0.5, 1.0, 10));
  CHECK_THROWS_AS(acc.epsilon(0.0), std::invalid_argument);
  CHECK_THROWS_AS(acc.epsilon(1.0), std::invalid_argument);
}
