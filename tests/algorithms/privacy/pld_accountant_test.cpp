#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

#include "algorithms/privacy/moments_accountant.hpp"
#include "algorithms/privacy/pld_accountant.hpp"
#include "algorithms/privacy/rdp_accountant.hpp"
#include "analytic_gaussian.hpp"

using namespace fbosim::privacy;

namespace {
const double kDelta200 = std::pow(200.0, -1.1);

EpsilonBounds pld_bounds(double q, double z, int steps, double delta, double h = 0) {
  PldAccountant acc(h);
  acc.compose(sampled_gaussian(Sampling::poisson, q, z, 200), steps);
  return acc.epsilon_bounds(delta);
}

double rdp_epsilon(double q, double z, int steps, double delta) {
  RdpAccountant r;
  r.compose(sampled_gaussian(Sampling::poisson, q, z, 200), steps);
  return r.epsilon(delta).epsilon;
}
}  // namespace

TEST_CASE("one step's discrete PLDs are (sub)probability distributions on the right side") {
  for (bool add : {false, true})
    for (double h : {1e-3, 1e-4}) {
      const PldPmf up = PldAccountant::single(0.25, 1.0, h, add, Bound::upper);
      const PldPmf low = PldAccountant::single(0.25, 1.0, h, add, Bound::lower);
      CHECK(std::accumulate(up.p.begin(), up.p.end(), 0.0) + up.inf_mass ==
            Approx(1.0).margin(1e-12));
      CHECK(std::accumulate(low.p.begin(), low.p.end(), 0.0) <= 1.0 + 1e-12);
      // Connect the dots keeps E_P[e^{-L}] = Q(everything) = 1 (up to the cut tails).
      double mgf = 0;
      for (std::size_t i = 0; i < up.p.size(); ++i)
        mgf += up.p[i] * std::exp(-h * static_cast<double>(up.offset + static_cast<long>(i)));
      CHECK(mgf == Approx(1.0).margin(1e-9));
    }
}

TEST_CASE("connect-the-dots masses equal dp_accounting's published values (interior points)") {
  // google/dp_accounting privacy_loss_distribution_test.py,
  // test_gaussian_discretization_connect_dots (sigma 1, sensitivity 1) and
  // test_gaussian_varying_standard_deviation_and_sensitivity_connect_dots. The end points there
  // carry that test's truncation (log_mass_truncation_bound), so only interior points compare.
  const auto check = [](double q, double z, double h, bool add, std::map<long, double> expected) {
    const PldPmf d = PldAccountant::single(q, z, h, add, Bound::upper);
    for (const auto& [k, mass] : expected) {
      INFO("q " << q << " z " << z << " h " << h << " add " << add << " key " << k);
      CHECK(d.p.at(static_cast<std::size_t>(k - d.offset)) == Approx(mass).margin(2e-9));
    }
  };
  check(
      1.0, 1.0, 0.5, false,
      {{2, 0.175063076}, {1, 0.195400642}, {0, 0.171573378}, {-1, 0.118516480}, {-2, 0.064402107}});
  check(1.0, 1.0, 0.3, false,
        {{4, 0.093801719},
         {3, 0.110114456},
         {2, 0.118295665},
         {1, 0.116301523},
         {0, 0.104639278},
         {-1, 0.086158287},
         {-2, 0.064922037},
         {-3, 0.044769197},
         {-4, 0.028252535}});
  // sigma 3, sensitivity 6, sampling 0.2 is z = 0.5 at sensitivity 1.
  check(0.2, 0.5, 1.0, false,
        {{2, 0.041751932}, {1, 0.105788001}, {0, 0.738200118}, {-1, 0.079461876}});
  check(0.2, 0.5, 1.0, true,
        {{1, 0.215999775}, {0, 0.738200118}, {-1, 0.038917231}, {-2, 0.005650510}});
  check(0.8, 1.0, 1.0, false, {{1, 0.314081995}, {0, 0.398104072}});
  check(0.8, 1.0, 1.0, true, {{0, 0.398104072}, {-1, 0.115544309}});
}

TEST_CASE("pld matches dp_accounting's published PLDAccountant values") {
  // pld_privacy_accountant_test.py: test_gaussian_basic (z = sqrt 3, 3 steps: (1, 0.126936))
  // and test_poisson_subsampled_gaussian (q = 0.2, z = 0.5, 3 steps: (1, 0.15594)), to 1e-3.
  const EpsilonBounds g = pld_bounds(1.0, std::sqrt(3.0), 3, 0.126936);
  CHECK(g.upper == Approx(1.0).margin(1e-3));
  const EpsilonBounds s = pld_bounds(0.2, 0.5, 3, 0.15594);
  CHECK(s.upper == Approx(1.0).margin(1e-3));
  CHECK(s.lower <= s.upper);
}

TEST_CASE("q = 1: the analytic-Gaussian epsilon lies inside a tight bracket at every T") {
  // T steps of z = s sqrt(T) compose to one Gaussian of noise s exactly (Balle & Wang 2018).
  for (double s : {0.8, 2.0}) {
    const double exact = fbosim::test::analytic_gaussian_epsilon(s, 1e-5);
    for (int steps : {1, 60, 10000, 1000000}) {
      const EpsilonBounds b = pld_bounds(1.0, s * std::sqrt(steps), steps, 1e-5);
      INFO("s " << s << " T " << steps << " exact " << exact << " [" << b.lower << ", " << b.upper
                << "]");
      CHECK(b.lower <= exact + 1e-9);
      CHECK(exact <= b.upper + 1e-9);
      CHECK(b.upper - exact <= 2e-3 * exact);
    }
  }
  // Tiny noise: losses near 1400, where Q of a cell (e^{-l} P) is far below the smallest double.
  // Exact values: the Balle-Wang equation solved with mpmath at 50 digits.
  const EpsilonBounds tiny = pld_bounds(1.0, 0.02, 1, 1e-3);
  CHECK(tiny.lower <= 1403.5414143388965);
  CHECK(1403.5414143388965 <= tiny.upper);
  CHECK(tiny.upper - tiny.lower <= 1e-3);
  const EpsilonBounds small = pld_bounds(1.0, 0.05, 1, 1e-5);
  CHECK(small.lower <= 284.39184949774248);
  CHECK(284.39184949774248 <= small.upper);
  // Also with a large epsilon: z = 1, T = 40 (noise 1/sqrt(40)).
  const double exact = fbosim::test::analytic_gaussian_epsilon(1 / std::sqrt(40.0), 1e-5);
  const EpsilonBounds b = pld_bounds(1.0, 1.0, 40, 1e-5);
  CHECK(b.lower <= exact);
  CHECK(exact <= b.upper);
  CHECK(b.upper - b.lower <= 1e-3);
}

TEST_CASE("q = 1: the exact Gaussian epsilon lies in the bracket at deltas down to 1e-16") {
  // The analytic Gaussian mechanism (Balle & Wang 2018, Thm. 8): delta(eps) = Phi(-eps/mu +
  // mu/2) - e^eps Phi(-eps/mu - mu/2), mu = 1/s, solved with mpmath at 60 digits (issue 24:
  // 18.04789 at s = 0.5, delta = 1e-16). At small delta the answer lies in the loss's far tail:
  // a PLD that dropped one step's upper tail (1e-18 of mass beyond its support) instead of
  // moving it to +infinity falls below these values (18.04592 at 1e-16).
  struct Exact {
    double s, delta, epsilon;
  };
  const std::vector<Exact> exact = {
      {0.5, 1e-5, 9.9972561464343004},  {0.5, 1e-8, 12.749246399635697},
      {0.5, 1e-10, 14.274089645078006}, {0.5, 1e-12, 15.641125779460989},
      {0.5, 1e-14, 16.890508620723731}, {0.5, 1e-16, 18.047885926150891},
      {0.8, 1e-5, 5.6795868550975656},  {0.8, 1e-8, 7.4179757753493909},
      {0.8, 1e-12, 9.2387405324904583}, {0.8, 1e-14, 10.024130123420515},
      {0.8, 1e-16, 10.751186559346446}, {2.0, 1e-5, 1.9930914044151196},
      {2.0, 1e-10, 3.0994303302431961}, {2.0, 1e-14, 3.7675300194691297},
      {2.0, 1e-16, 4.0618332996829667}};
  for (const Exact& e : exact) {
    // The double-precision solver above agrees (an independent check of the table).
    CHECK(fbosim::test::analytic_gaussian_epsilon(e.s, e.delta) == Approx(e.epsilon).epsilon(1e-9));
    const EpsilonBounds b = pld_bounds(1.0, e.s, 1, e.delta);
    INFO("s " << e.s << " delta " << e.delta << " exact " << e.epsilon << " [" << b.lower << ", "
              << b.upper << "]");
    CHECK(b.lower <= e.epsilon);
    CHECK(e.epsilon <= b.upper);
    CHECK(b.upper - e.epsilon <= 2e-4 * e.epsilon);
  }
  // Two steps (s = 0.5 overall) at 1e-12: the composed tails are cut too, still on the safe side.
  const EpsilonBounds two = pld_bounds(1.0, 0.5 * std::sqrt(2.0), 2, 1e-12);
  CHECK(two.lower <= 15.641125779460989);
  CHECK(15.641125779460989 <= two.upper);
}

TEST_CASE("mixed rounds: two Gaussians compose to the Gaussian of the summed precisions") {
  // 1/s^2 = 10/z1^2 + 30/z2^2 (q = 1), whatever the order of the rounds.
  PldAccountant a, b;
  a.compose(sampled_gaussian(Sampling::poisson, 1.0, 3.0, 0), 10);
  a.compose(sampled_gaussian(Sampling::poisson, 1.0, 6.0, 0), 30);
  for (int i = 0; i < 10; ++i) {
    b.compose(sampled_gaussian(Sampling::poisson, 1.0, 6.0, 0), 3);
    b.compose(sampled_gaussian(Sampling::poisson, 1.0, 3.0, 0));
  }
  const double exact =
      fbosim::test::analytic_gaussian_epsilon(1 / std::sqrt(10 / 9.0 + 30 / 36.0), 1e-5);
  for (const PldAccountant* acc : {&a, &b}) {
    const EpsilonBounds e = acc->epsilon_bounds(1e-5);
    CHECK(e.lower <= exact);
    CHECK(exact <= e.upper);
    CHECK(e.upper - e.lower <= 1e-3);
  }
  CHECK(a.epsilon(1e-5).epsilon == Approx(b.epsilon(1e-5).epsilon).epsilon(1e-12));
}

TEST_CASE("pld <= rdp <= moments on the paper's settings, and the 20% target") {
  for (double q : {0.15, 0.25, 0.5})
    for (double z : {1.0, 1.2, 1.5}) {
      MomentsAccountant m;
      m.compose(sampled_gaussian(Sampling::poisson, q, z, 200), 40);
      const EpsilonBounds pld = pld_bounds(q, z, 40, kDelta200);
      const double rdp = rdp_epsilon(q, z, 40, kDelta200);
      CHECK(pld.lower <= pld.upper);
      CHECK(pld.upper - pld.lower <= 1e-3);
      CHECK(pld.upper <= rdp);
      CHECK(rdp <= m.epsilon(kDelta200).epsilon);
    }
  // q = 0.25, z = 1, N = 200, T = 40: at least 20 % below the moments accountant's 9.9085.
  CHECK(pld_bounds(0.25, 1.0, 40, kDelta200).upper <= 0.8 * 9.9085);
}

TEST_CASE("issue #10: q = 0.01, z = 1.1, delta = 1e-5 against dp_accounting and rdp") {
  // dp_accounting's pessimistic PLD gives about 5.19 at T = 10,000 (the issue); rdp 5.63.
  const EpsilonBounds b = pld_bounds(0.01, 1.1, 10000, 1e-5);
  CHECK(b.upper == Approx(5.19).margin(0.01));
  CHECK(b.upper - b.lower <= 2e-3);
  CHECK(b.upper < rdp_epsilon(0.01, 1.1, 10000, 1e-5));
  for (int steps : {60, 500}) {
    const EpsilonBounds e = pld_bounds(0.01, 1.1, steps, 1e-5);
    CHECK(e.upper - e.lower <= 1e-4);
    CHECK(e.upper < rdp_epsilon(0.01, 1.1, steps, 1e-5));
  }
}

TEST_CASE("issue #10: q = 0.25, z = 1, N = 200 at T = 200,000 is finite, tight and below rdp") {
  // Used to print 0. The bracket brackets the true value; rdp is an upper bound on it too.
  const EpsilonBounds b = pld_bounds(0.25, 1.0, 200000, kDelta200);
  const double rdp = rdp_epsilon(0.25, 1.0, 200000, kDelta200);
  INFO("[" << b.lower << ", " << b.upper << "], rdp " << rdp);
  CHECK(std::isfinite(b.upper));
  CHECK(b.lower > 0.9 * rdp);  // the true epsilon is far from 0
  CHECK(b.upper - b.lower <= 1e-3 * b.upper);
  CHECK(b.upper < rdp);
  // Near T = 183,600 it printed inf: finite, and below the T = 200,000 bracket.
  const EpsilonBounds before = pld_bounds(0.25, 1.0, 183600, kDelta200);
  CHECK(std::isfinite(before.upper));
  CHECK(before.lower > 0.9 * rdp_epsilon(0.25, 1.0, 183600, kDelta200));
  CHECK(before.upper < b.lower);
}

TEST_CASE("pld grows with q and T and shrinks with z, also at long horizons") {
  CHECK(pld_bounds(0.15, 1, 40, kDelta200).upper < pld_bounds(0.25, 1, 40, kDelta200).upper);
  CHECK(pld_bounds(0.25, 1.5, 40, kDelta200).upper < pld_bounds(0.25, 1.2, 40, kDelta200).upper);
  double last = 0;  // long horizons on a coarser grid (fast); the brackets must not overlap
  for (int steps : {20, 40, 100000, 150000, 200000}) {
    const EpsilonBounds b = pld_bounds(0.25, 5.0, steps, kDelta200, steps > 40 ? 5e-3 : 0);
    CHECK(b.lower > last);
    last = b.upper;
  }
}

TEST_CASE("a finer grid narrows the bracket around the same epsilon") {
  const EpsilonBounds coarse = pld_bounds(0.25, 1.0, 20, 1e-4, 2e-2);
  const EpsilonBounds fine = pld_bounds(0.25, 1.0, 20, 1e-4, 2e-3);
  CHECK(fine.upper - fine.lower < 0.1 * (coarse.upper - coarse.lower));
  CHECK(fine.upper <= coarse.upper + 1e-9);
  CHECK(fine.lower >= coarse.lower - 1e-9);
}

TEST_CASE("pld refuses fixed-size sampling, bad parameters and a delta it cannot resolve") {
  PldAccountant acc;
  CHECK_THROWS_AS(acc.compose(sampled_gaussian(Sampling::fixed, 0.25, 1.0, 200)),
                  std::invalid_argument);
  CHECK_THROWS_AS(acc.compose(sampled_gaussian(Sampling::poisson, 0.0, 1.0, 200)),
                  std::invalid_argument);
  CHECK_THROWS_AS(acc.compose(sampled_gaussian(Sampling::poisson, 0.25, -1.0, 200)),
                  std::invalid_argument);
  CHECK_THROWS_AS(acc.compose(sampled_gaussian(Sampling::poisson, 0.25, 1.0, 200), -2),
                  std::invalid_argument);
  acc.compose(sampled_gaussian(Sampling::poisson, 0.25, 1.0, 200), 1000);
  CHECK_THROWS_AS(acc.epsilon(1.5), std::invalid_argument);
  // The cut tails leave ~1e-15 at infinite loss: a delta below that has no finite answer.
  CHECK_THROWS_AS(acc.epsilon(1e-17), std::domain_error);
  CHECK_THROWS_AS(PldAccountant(-1.0), std::invalid_argument);
}
