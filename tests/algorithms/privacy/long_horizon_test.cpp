#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/privacy/gdp_accountant.hpp"
#include "algorithms/privacy/moments_accountant.hpp"
#include "algorithms/privacy/pld_accountant.hpp"
#include "algorithms/privacy/rdp_accountant.hpp"

using namespace fbosim::privacy;

// Issue #10: at T = 1e5 .. 1e7 no accountant may print 0, a silent infinity or NaN. Epsilon is
// finite, positive and increasing in T, and no bound falls below the exact PLD lower bound.
namespace {
const double kDelta200 = std::pow(200.0, -1.1);

double epsilon_of(Accountant& acc, double q, double z, int steps, double delta) {
  acc.compose(sampled_gaussian(Sampling::poisson, q, z, 200), steps);
  return acc.epsilon(delta).epsilon;
}
}  // namespace

TEST_CASE("moments, rdp and gdp give finite, growing epsilons at T = 1e5, 1e6, 1e7") {
  for (const std::string name : {"moments", "rdp", "gdp"})
    for (double z : {1.0, 5.0}) {
      double last = 0;
      for (int steps : {100000, 1000000, 10000000}) {
        auto acc = make_accountant(name);
        const double eps = epsilon_of(*acc, 0.25, z, steps, kDelta200);
        INFO(name << " z " << z << " T " << steps << " eps " << eps);
        CHECK(std::isfinite(eps));
        CHECK(eps > last);
        last = eps;
      }
    }
}

TEST_CASE("long horizons: rdp and moments stay above the pld lower bound, gdp close to it") {
  // q = 0.25, z = 5, T = 1e6 on a coarse fixed grid (fast): the bracket holds the true epsilon,
  // which every sound bound must exceed; gdp (a CLT approximation) lands near it at this T.
  PldAccountant pld(5e-3);
  pld.compose(sampled_gaussian(Sampling::poisson, 0.25, 5.0, 200), 1000000);
  const EpsilonBounds b = pld.epsilon_bounds(kDelta200);
  RdpAccountant rdp;
  MomentsAccountant moments;
  GdpAccountant gdp;
  const double e_rdp = epsilon_of(rdp, 0.25, 5.0, 1000000, kDelta200);
  const double e_mom = epsilon_of(moments, 0.25, 5.0, 1000000, kDelta200);
  const double e_gdp = epsilon_of(gdp, 0.25, 5.0, 1000000, kDelta200);
  INFO("pld [" << b.lower << ", " << b.upper << "] rdp " << e_rdp << " moments " << e_mom << " gdp "
               << e_gdp);
  CHECK(b.upper - b.lower <= 1e-2 * b.upper);
  CHECK(e_rdp >= b.lower);
  CHECK(e_mom >= e_rdp);
  CHECK(e_gdp == Approx(b.upper).epsilon(0.05));
}

TEST_CASE("pld at T = 1e6 and 1e7 answers finitely or throws a clear error, never 0 or inf") {
  for (int steps : {1000000, 10000000}) {
    PldAccountant pld(steps == 1000000 ? 5e-3 : 2e-2);
    pld.compose(sampled_gaussian(Sampling::poisson, 0.25, 5.0, 200), steps);
    const double eps = pld.epsilon(kDelta200).epsilon;
    CHECK(std::isfinite(eps));
    CHECK(eps > 0);
  }
  // A grid far too fine for the horizon: a clear length error, not a silent number.
  PldAccountant fine(1e-7);
  fine.compose(sampled_gaussian(Sampling::poisson, 0.25, 1.0, 200), 1000000);
  CHECK_THROWS_AS(fine.epsilon(kDelta200), std::length_error);
}

TEST_CASE("gdp throws where its mu overflows instead of printing infinity") {
  // q = 0.25, z = 0.02: e^{1/z^2} = e^2500 is not a double.
  GdpAccountant gdp;
  gdp.compose(sampled_gaussian(Sampling::poisson, 0.25, 0.02, 200), 10);
  CHECK_THROWS_AS(gdp.epsilon(1e-5), std::domain_error);
}

TEST_CASE("a noise multiplier whose square underflows gives no finite epsilon, never 0") {
  // issue 24: at z = 1e-160 the rdp accountant's terms were 0/0 and std::max(0, NaN) made the
  // RDP of every order 0, so it printed epsilon 0. Every accountant must throw or give +inf.
  for (const double z : {1e-154, 1e-155, 1e-160, 1e-200, 1e-320})
    for (const std::string name : {"moments", "rdp", "pld", "gdp"})
      for (const double q : {0.25, 1.0}) {
        INFO(name << " q " << q << " z " << z);
        auto acc = make_accountant(name);
        acc->compose(sampled_gaussian(Sampling::poisson, q, z, 200), 60);
        double eps = 0;
        try {
          eps = acc->epsilon(kDelta200).epsilon;
        } catch (const std::domain_error&) {
          eps = std::numeric_limits<double>::infinity();
        }
        CHECK(std::isinf(eps));
      }
  for (const double a : {1.5, 2.0, 32.0}) {
    CHECK(std::isinf(RdpAccountant::poisson_rdp(0.25, 1e-200, a)));
    CHECK(std::isinf(RdpAccountant::poisson_rdp(1.0, 1e-200, a)));
  }
  CHECK(std::isinf(RdpAccountant::fixed_rdp(0.5, 1e-200, 4)));
  RdpAccountant fixed;
  fixed.compose(sampled_gaussian(Sampling::fixed, 0.5, 1e-200, 200), 3);
  CHECK(std::isinf(fixed.epsilon(kDelta200).epsilon));
}
