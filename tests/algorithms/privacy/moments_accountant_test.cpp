#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/privacy/moments_accountant.hpp"

using namespace fbosim::privacy;
using Catch::Matchers::Contains;

namespace {
const double kDelta = std::pow(200.0, -1.1);  // delta = N^-1.1, N = 200 (spec section 6)

EpsilonResult forty_steps(double q, double z) {
  MomentsAccountant acc;
  acc.compose(sampled_gaussian(Sampling::poisson, q, z, 200), 40);
  return acc.epsilon(kDelta);
}

// Independent: A_alpha = sum_k C(alpha,k) (1-q)^(alpha-k) q^k exp((k^2-k)/(2 z^2)), summed
// directly in long double with an integer-recurrence binomial (no logs, no lgamma).
long double brute_rdp(long double q, long double z, int alpha) {
  long double sum = 0, binom = 1;
  for (int k = 0; k <= alpha; ++k) {
    sum += binom * std::pow(1 - q, static_cast<long double>(alpha - k)) *
           std::pow(q, static_cast<long double>(k)) *
           std::exp(static_cast<long double>(k * k - k) / (2 * z * z));
    binom = binom * (alpha - k) / (k + 1);
  }
  return std::log(sum) / (alpha - 1);
}
}  // namespace

TEST_CASE("epsilon reproduces the paper's five values (N = 200, T = 40, delta = N^-1.1)") {
  // Fig. 2c and 2d; printed to 2 decimals.
  struct Row {
    double q, z, printed;
  };
  const Row rows[] = {{0.15, 1.0, 5.93},
                      {0.25, 1.0, 9.91},
                      {0.5, 1.0, 20.12},
                      {0.25, 1.2, 7.39},
                      {0.25, 1.5, 5.22}};
  for (const Row& r : rows) {
    CAPTURE(r.q, r.z);
    const EpsilonResult e = forty_steps(r.q, r.z);
    CHECK(std::abs(e.epsilon - r.printed) <= 0.005);
    CHECK(e.order >= 2);
    CHECK(e.order <= 33);
  }
}

TEST_CASE("q = 1 gives RDP(alpha) = alpha / (2 z^2)") {
  for (const double z : {0.5, 1.0, 2.3})
    for (int alpha = 2; alpha <= 33; ++alpha)
      CHECK(MomentsAccountant::rdp(1.0, z, alpha) == Approx(alpha / (2 * z * z)).epsilon(1e-12));
}

TEST_CASE("alpha = 2 gives log(1 + q^2 (e^(1/z^2) - 1))") {
  for (const double q : {0.01, 0.25, 0.9})
    for (const double z : {0.7, 1.0, 3.0})
      CHECK(MomentsAccountant::rdp(q, z, 2) ==
            Approx(std::log1p(q * q * std::expm1(1 / (z * z)))).epsilon(1e-12));
}

TEST_CASE("RDP matches a brute-force long-double sum for small orders") {
  for (const double q : {0.05, 0.25, 0.5, 0.99})
    for (const double z : {0.8, 1.0, 1.5})
      for (int alpha = 2; alpha <= 12; ++alpha) {
        CAPTURE(q, z, alpha);
        const double expected = static_cast<double>(brute_rdp(q, z, alpha));
        CHECK(MomentsAccountant::rdp(q, z, alpha) == Approx(expected).epsilon(1e-10));
      }
}

TEST_CASE("compose(e, 40) equals forty single composes, zero steps give epsilon 0") {
  const DpEvent e = sampled_gaussian(Sampling::poisson, 0.25, 1.2, 0);
  MomentsAccountant once, many;
  once.compose(e, 40);
  for (int k = 0; k < 40; ++k) many.compose(e);
  CHECK(once.steps() == 40);
  CHECK(many.steps() == 40);
  CHECK(once.epsilon(kDelta).epsilon == Approx(many.epsilon(kDelta).epsilon).epsilon(1e-12));
  CHECK(once.epsilon(kDelta).order == many.epsilon(kDelta).order);
  MomentsAccountant empty;
  CHECK(empty.epsilon(kDelta).epsilon == 0.0);
  empty.compose(e, 0);
  CHECK(empty.steps() == 0);
  CHECK(empty.epsilon(kDelta).epsilon == 0.0);
}

TEST_CASE("epsilon grows with q and steps and shrinks with z") {
  double prev = 0;
  for (const double q : {0.05, 0.1, 0.2, 0.35, 0.6, 1.0}) {
    const double eps = forty_steps(q, 1.0).epsilon;
    CHECK(eps > prev);
    prev = eps;
  }
  prev = 1e300;
  for (const double z : {0.8, 1.0, 1.6, 2.0, 3.0, 4.0}) {
    const double eps = forty_steps(0.35, z).epsilon;
    CHECK(eps < prev);
    prev = eps;
  }
  MomentsAccountant acc;
  prev = 0;
  for (int t = 1; t <= 60; ++t) {
    acc.compose(sampled_gaussian(Sampling::poisson, 0.35, 1.0, 0));
    const double eps = acc.epsilon(kDelta).epsilon;
    CHECK(eps > prev);
    prev = eps;
  }
}

TEST_CASE("bad inputs throw with the offending value in the message") {
  MomentsAccountant acc;
  CHECK_THROWS_WITH(acc.compose(sampled_gaussian(Sampling::poisson, 1.5, 1.0, 0)),
                    Contains("q") && Contains("1.5"));
  CHECK_THROWS_WITH(acc.compose(sampled_gaussian(Sampling::poisson, 0.0, 1.0, 0)),
                    Contains("q") && Contains("0"));
  CHECK_THROWS_WITH(acc.compose(sampled_gaussian(Sampling::poisson, 0.2, -2.0, 0)),
                    Contains("z") && Contains("-2"));
  CHECK_THROWS_WITH(acc.compose(sampled_gaussian(Sampling::poisson, 0.2, 1.0, 0), -3),
                    Contains("count") && Contains("-3"));
  CHECK_THROWS_WITH(acc.compose(sampled_gaussian(Sampling::fixed, 0.2, 1.0, 200)),
                    Contains("moments") && Contains("FixedSampled(m=40, N=200, Gaussian(z=1))"));
  CHECK_THROWS_WITH(acc.epsilon(1.0), Contains("delta") && Contains("1"));
  CHECK_THROWS_WITH(acc.epsilon(-0.25), Contains("delta") && Contains("-0.25"));
  CHECK_THROWS_WITH(MomentsAccountant::rdp(0.2, 1.0, 1), Contains("alpha") && Contains("1"));
  CHECK(acc.steps() == 0);  // nothing half-composed
  CHECK_THROWS_AS(acc.compose(sampled_gaussian(Sampling::poisson, std::nan(""), 1.0, 0)),
                  std::invalid_argument);
}

TEST_CASE("make_accountant knows 'moments' and lists the known names otherwise") {
  const auto acc = make_accountant("moments");
  REQUIRE(acc);
  CHECK(acc->name() == "moments");
  CHECK_THROWS_WITH(make_accountant("prv"), Contains("prv") && Contains("moments"));
}
