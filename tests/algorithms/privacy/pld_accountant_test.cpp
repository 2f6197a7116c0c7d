#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <stdexcept>

#include "algorithms/privacy/moments_accountant.hpp"
#include "algorithms/privacy/pld_accountant.hpp"
#include "algorithms/privacy/rdp_accountant.hpp"

using namespace fbosim::privacy;

namespace {
const double kDelta200 = std::pow(200.0, -1.1);

double phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The exact epsilon of the Gaussian mechanism with sensitivity 1 and noise s (Balle & Wang 2018,
// Thm. 8): delta(eps) = Phi(1/(2s) - eps s) - e^eps Phi(-1/(2s) - eps s), solved by bisection.
double analytic_gaussian_epsilon(double s, double delta) {
  const auto d = [s](double eps) {
    return phi(1 / (2 * s) - eps * s) - std::exp(eps) * phi(-1 / (2 * s) - eps * s);
  };
  double lo = 0, hi = 100;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (d(mid) > delta ? lo : hi) = mid;
  }
  return hi;
}

EpsilonBounds pld_bounds(double q, double z, int steps, double delta, double h = 0) {
  PldAccountant acc(h);
  acc.compose(DpEvent{q, z, Sampling::poisson, 200}, steps);
  return acc.epsilon_bounds(delta);
}
}  // namespace

TEST_CASE("one step's discrete PLD is a probability distribution") {
  for (bool add : {false, true}) {
    const auto d = PldAccountant::single(0.25, 1.0, 1e-3, add);
    const double total = std::accumulate(d.p.begin(), d.p.end(), 0.0) + d.inf_mass;
    CHECK(total == Approx(1.0).margin(1e-12));
    // E_P[e^{-L}] = E_Q[1] = 1 for the exact PLD; rounding losses up makes it <= 1.
    double mgf = 0;
    for (std::size_t i = 0; i < d.p.size(); ++i)
      mgf += d.p[i] * std::exp(-1e-3 * static_cast<double>(d.offset + static_cast<long>(i)));
    CHECK(mgf <= 1.0 + 1e-12);
    CHECK(mgf > 0.999);
  }
}

TEST_CASE("q = 1: the exact analytic-Gaussian epsilon lies inside the reported bracket") {
  for (double z : {1.0, 2.0})
    for (int steps : {1, 10, 40}) {
      const double exact = analytic_gaussian_epsilon(z / std::sqrt(steps), 1e-5);
      const EpsilonBounds b = pld_bounds(1.0, z, steps, 1e-5);
      INFO("z " << z << " T " << steps << " exact " << exact << " [" << b.lower << ", " << b.upper
                << "]");
      CHECK(b.lower <= exact + 1e-9);
      CHECK(exact <= b.upper + 1e-9);
      CHECK(b.upper - b.lower <= steps * PldAccountant::grid_for(steps) + 1e-12);
    }
}

TEST_CASE("pld <= rdp <= moments on the paper's settings, and the 20% target") {
  for (double q : {0.15, 0.25, 0.5})
    for (double z : {1.0, 1.2, 1.5}) {
      MomentsAccountant m;
      RdpAccountant r;
      m.compose(DpEvent{q, z, Sampling::poisson, 200}, 40);
      r.compose(DpEvent{q, z, Sampling::poisson, 200}, 40);
      const double pld = pld_bounds(q, z, 40, kDelta200).upper;
      CHECK(pld <= r.epsilon(kDelta200).epsilon);
      CHECK(r.epsilon(kDelta200).epsilon <= m.epsilon(kDelta200).epsilon);
    }
  // q = 0.25, z = 1, N = 200, T = 40: at least 20 % below the moments accountant's 9.9085.
  CHECK(pld_bounds(0.25, 1.0, 40, kDelta200).upper <= 0.8 * 9.9085);
}

TEST_CASE("a finer grid narrows the bracket around the same epsilon") {
  const EpsilonBounds coarse = pld_bounds(0.25, 1.0, 20, 1e-4, 2e-3);
  const EpsilonBounds fine = pld_bounds(0.25, 1.0, 20, 1e-4, 2e-4);
  CHECK(fine.upper <= coarse.upper + 1e-9);
  CHECK(fine.lower >= coarse.lower - 1e-9);
  CHECK(fine.upper >= coarse.lower);
}

TEST_CASE("pld epsilon grows with q and T and shrinks with z") {
  CHECK(pld_bounds(0.15, 1, 40, kDelta200).upper < pld_bounds(0.25, 1, 40, kDelta200).upper);
  CHECK(pld_bounds(0.25, 1.5, 40, kDelta200).upper < pld_bounds(0.25, 1.2, 40, kDelta200).upper);
  CHECK(pld_bounds(0.25, 1, 20, kDelta200).upper < pld_bounds(0.25, 1, 40, kDelta200).upper);
}

TEST_CASE("pld: mixed rounds compose in any order") {
  PldAccountant a(1e-3), b(1e-3);
  a.compose(DpEvent{0.25, 1.0, Sampling::poisson, 200}, 10);
  a.compose(DpEvent{0.25, 2.0, Sampling::poisson, 200}, 10);
  for (int i = 0; i < 10; ++i) {
    b.compose(DpEvent{0.25, 2.0, Sampling::poisson, 200});
    b.compose(DpEvent{0.25, 1.0, Sampling::poisson, 200});
  }
  CHECK(a.epsilon(1e-4).epsilon == Approx(b.epsilon(1e-4).epsilon).epsilon(1e-9));
  PldAccountant only_z1(1e-3);
  only_z1.compose(DpEvent{0.25, 1.0, Sampling::poisson, 200}, 10);
  CHECK(only_z1.epsilon(1e-4).epsilon < a.epsilon(1e-4).epsilon);
}

TEST_CASE("pld refuses fixed-size sampling and bad parameters") {
  PldAccountant acc;
  CHECK_THROWS_AS(acc.compose(DpEvent{0.25, 1.0, Sampling::fixed, 200}), std::invalid_argument);
  CHECK_THROWS_AS(acc.compose(DpEvent{0.0, 1.0, Sampling::poisson, 200}), std::invalid_argument);
  CHECK_THROWS_AS(acc.compose(DpEvent{0.25, -1.0, Sampling::poisson, 200}), std::invalid_argument);
  CHECK_THROWS_AS(acc.compose(DpEvent{0.25, 1.0, Sampling::poisson, 200}, -2),
                  std::invalid_argument);
  acc.compose(DpEvent{0.25, 1.0, Sampling::poisson, 200});
  CHECK_THROWS_AS(acc.epsilon(1.5), std::invalid_argument);
  CHECK_THROWS_AS(PldAccountant(-1.0), std::invalid_argument);
}
