// The standard BO test functions against independent values: the published optima and
// minimisers (Surjanovic & Bingham's Virtual Library of Simulation Experiments, as BoTorch's
// test_functions use them), closed forms worked by hand, and values of a separate python3
// implementation (plain `math`, the formulas typed again from the library's pages).
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "datasets/test_function/test_function.hpp"
#include "sim/core/rng.hpp"

using namespace fbosim::datasets::test_function;

namespace {
Eigen::VectorXd vec(std::initializer_list<double> v) {
  Eigen::VectorXd out(static_cast<Eigen::Index>(v.size()));
  Eigen::Index i = 0;
  for (const double x : v) out[i++] = x;
  return out;
}
constexpr double pi = std::numbers::pi;
}  // namespace

TEST_CASE("test functions: the published minima at the published minimisers") {
  // Branin: 0.397887 at its three minimisers.
  for (const auto& z : {vec({-pi, 12.275}), vec({pi, 2.275}), vec({9.42478, 2.475})})
    CHECK(value(TestFunction::branin, z) == Approx(0.397887).margin(1e-6));
  // Hartmann-3: -3.86278 at (0.114614, 0.555649, 0.852547); Hartmann-6: -3.32237 at
  // (0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573). The points are rounded to six
  // digits, so the values there agree to about 1e-5.
  CHECK(value(TestFunction::hartmann3, vec({0.114614, 0.555649, 0.852547})) ==
        Approx(-3.86278).margin(1e-5));
  CHECK(value(TestFunction::hartmann6, vec({0.20169, 0.150011, 0.476874, 0.275332, 0.311652,
                                            0.6573})) == Approx(-3.32237).margin(1e-5));
  // Ackley 0 at 0, Levy and Rosenbrock 0 at 1, in several dimensions.
  for (const int d : {1, 2, 5, 20}) {
    INFO("d = " << d);
    CHECK(value(TestFunction::ackley, Eigen::VectorXd::Zero(d)) == 0);
    CHECK(value(TestFunction::levy, Eigen::VectorXd::Ones(d)) == Approx(0).margin(1e-30));
    if (d >= 2) CHECK(value(TestFunction::rosenbrock, Eigen::VectorXd::Ones(d)) == 0);
  }
  // The stored minima: the published ones (rounded), attained at the stored minimisers.
  const std::pair<TestFunction, double> published[] = {{TestFunction::branin, 0.397887},
                                                       {TestFunction::hartmann3, -3.86278},
                                                       {TestFunction::hartmann6, -3.32237},
                                                       {TestFunction::ackley, 0},
                                                       {TestFunction::levy, 0},
                                                       {TestFunction::rosenbrock, 0}};
  for (const auto& [f, m] : published) {
    INFO(kTestFunctionNames.name(f));
    CHECK(minimum(f) == Approx(m).margin(5e-6));
    const int d = fixed_dimension(f) > 0 ? fixed_dimension(f) : 3;
    const Eigen::VectorXd z = minimiser(f, d);
    CHECK(value(f, z) == Approx(minimum(f)).margin(1e-14));
    // The minimiser lies in the domain.
    const Domain box = domain(f, d);
    CHECK((z.array() >= box.lower.array()).all());
    CHECK((z.array() <= box.upper.array()).all());
  }
  CHECK(minimum(TestFunction::branin) == Approx(5 / (4 * pi)).epsilon(1e-15));
}

TEST_CASE("test functions: Hartmann's stored minimisers are stationary and minimal nearby") {
  // Central differences of step 1e-5: the gradient at the stored points is 0 within the
  // differences' error (h^2 f''' / 6 and rounding: ~1e-8); at the published six-digit points
  // it is not (3.0e-5 for Hartmann-3's first coordinate, 0.114614 against 0.114589).
  for (const TestFunction f : {TestFunction::hartmann3, TestFunction::hartmann6}) {
    INFO(kTestFunctionNames.name(f));
    const Eigen::VectorXd z = minimiser(f, 0);
    const double h = 1e-5;
    for (Eigen::Index j = 0; j < z.size(); ++j) {
      Eigen::VectorXd a = z, b = z;
      a[j] += h;
      b[j] -= h;
      CHECK((value(f, a) - value(f, b)) / (2 * h) == Approx(0).margin(1e-7));
      CHECK(value(f, a) > minimum(f));
      CHECK(value(f, b) > minimum(f));
    }
  }
  const double h = 1e-5;
  Eigen::VectorXd a = vec({0.114614, 0.555649, 0.852547}), b = a;
  a[0] += h;
  b[0] -= h;
  CHECK(std::abs(value(TestFunction::hartmann3, a) - value(TestFunction::hartmann3, b)) / (2 * h) >
        2e-5);
}

TEST_CASE("test functions: values at other points, by hand and from python3") {
  // Hartmann (python3, the formula typed again): vals at 0.5 and at (0.1, 0.2, ...).
  CHECK(hartmann3(vec({0.5, 0.5, 0.5})) == Approx(-0.6280220150705937).epsilon(1e-13));
  CHECK(hartmann3(vec({0.1, 0.2, 0.3})) == Approx(-0.7329114876560026).epsilon(1e-13));
  CHECK(hartmann6(Eigen::VectorXd::Constant(6, 0.5)) == Approx(-0.5053149917022333).epsilon(1e-13));
  CHECK(hartmann6(vec({0.1, 0.2, 0.3, 0.4, 0.5, 0.6})) ==
        Approx(-1.4069105761385297).epsilon(1e-13));
  // Ackley at integer points: cos(2 pi z) = 1, so f = 20 (1 - exp(-0.2 r)), r = sqrt(mean z^2).
  CHECK(ackley(vec({1, 1})) == Approx(20 * (1 - std::exp(-0.2))).epsilon(1e-13));
  CHECK(ackley(vec({1, 2})) == Approx(20 * (1 - std::exp(-0.2 * std::sqrt(2.5)))).epsilon(1e-13));
  // At 0.5: cos(pi) = -1: 20 (1 - exp(-0.1)) + e - exp(-1).
  CHECK(ackley(vec({0.5, 0.5})) ==
        Approx(20 * (1 - std::exp(-0.1)) + std::numbers::e - std::exp(-1.0)).epsilon(1e-13));
  // python3, the textbook form -20 exp(..) - exp(..) + 20 + e.
  CHECK(ackley(vec({0.3, -1.7, 12})) == Approx(16.650090117588256).epsilon(1e-13));
  // Levy by hand: z = (-3, 1) -> w = (0, 1): 0 + 1 (1 + 10 sin^2 1) + 0.
  CHECK(levy(vec({-3, 1})) == Approx(1 + 10 * std::pow(std::sin(1.0), 2)).epsilon(1e-13));
  // z = (5, 5) -> w = (2, 2): sin^2(2 pi) + (1 + 10 sin^2(2 pi + 1)) + (1 + sin^2(4 pi)).
  CHECK(levy(vec({5, 5})) == Approx(2 + 10 * std::pow(std::sin(1.0), 2)).epsilon(1e-12));
  CHECK(levy(vec({0.3, -1.7, 8})) == Approx(10.635689112690883).epsilon(1e-13));  // python3
  // Rosenbrock by hand.
  CHECK(rosenbrock(vec({0, 0})) == 1);
  CHECK(rosenbrock(vec({-1, 1})) == 4);
  CHECK(rosenbrock(vec({1, 2, 3})) == 100 + 100 + 1);  // 100 (2-1)^2 + 0 + 100 (3-4)^2 + 1
  // Branin through the dispatch: branin(0, 0) = 36 + 10 (1 - 1/(8 pi)) + 10.
  CHECK(value(TestFunction::branin, vec({0, 0})) == Approx(56 - 10 / (8 * pi)).epsilon(1e-14));
}

TEST_CASE("test functions: no point of a random sample of the domain lies below the minimum") {
  fbosim::core::RngStream rng(5);
  for (const auto& e : kTestFunctionNames) {
    const TestFunction f = e.value;
    INFO(e.name);
    const int d = fixed_dimension(f) > 0 ? fixed_dimension(f) : 4;
    const Domain box = domain(f, d);
    double best = INFINITY;
    for (int k = 0; k < 20000; ++k) {
      const Eigen::VectorXd u = rng.uniform_matrix(d, 1).col(0);
      // Also outside the domain (up to half its width on each side): the minimum over R^d.
      const Eigen::VectorXd z =
          box.lower + ((box.upper - box.lower).array() * (2 * u.array() - 0.5)).matrix();
      best = std::min(best, value(f, z));
    }
    CHECK(best >= minimum(f));
  }
}

TEST_CASE("test functions: domains and dimensions as BoTorch's") {
  CHECK(fixed_dimension(TestFunction::branin) == 2);
  CHECK(fixed_dimension(TestFunction::hartmann3) == 3);
  CHECK(fixed_dimension(TestFunction::hartmann6) == 6);
  CHECK(fixed_dimension(TestFunction::ackley) == 0);
  CHECK(min_dimension(TestFunction::rosenbrock) == 2);
  CHECK(min_dimension(TestFunction::levy) == 1);
  const Domain b = domain(TestFunction::branin, 2);
  CHECK(b.lower == vec({-5, 0}));
  CHECK(b.upper == vec({10, 15}));
  CHECK(domain(TestFunction::ackley, 3).lower == Eigen::VectorXd::Constant(3, -32.768));
  CHECK(domain(TestFunction::ackley, 3).upper == Eigen::VectorXd::Constant(3, 32.768));
  CHECK(domain(TestFunction::levy, 2).lower == Eigen::VectorXd::Constant(2, -10));
  CHECK(domain(TestFunction::rosenbrock, 2).upper == Eigen::VectorXd::Constant(2, 10));
  CHECK(domain(TestFunction::hartmann6, 6).upper == Eigen::VectorXd::Ones(6));
  CHECK_THROWS(hartmann6(Eigen::VectorXd::Zero(3)));
}
