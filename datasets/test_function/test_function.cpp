#include "datasets/test_function/test_function.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "datasets/branin/branin_family.hpp"

namespace fbosim::datasets::test_function {

namespace {

constexpr double kPi = std::numbers::pi;

// Hartmann's constants (Surjanovic & Bingham; BoTorch's Hartmann): alpha, A and P = 1e-4 x.
constexpr double kAlpha[4] = {1.0, 1.2, 3.0, 3.2};
constexpr double kA3[4][3] = {{3, 10, 30}, {0.1, 10, 35}, {3, 10, 30}, {0.1, 10, 35}};
constexpr double kP3[4][3] = {
    {3689, 1170, 2673}, {4699, 4387, 7470}, {1091, 8732, 5547}, {381, 5743, 8828}};
constexpr double kA6[4][6] = {{10, 3, 17, 3.5, 1.7, 8},
                              {0.05, 10, 17, 0.1, 8, 14},
                              {3, 3.5, 1.7, 10, 17, 8},
                              {17, 8, 0.05, 10, 0.1, 14}};
constexpr double kP6[4][6] = {{1312, 1696, 5569, 124, 8283, 5886},
                              {2329, 4135, 8307, 3736, 1004, 9991},
                              {2348, 1451, 3522, 2883, 3047, 6650},
                              {4047, 8828, 8732, 5743, 1091, 381}};

template <int D>
double hartmann(const double (&a)[4][D], const double (&p)[4][D], const Eigen::VectorXd& z) {
  if (z.size() != D) throw std::invalid_argument("hartmann: wrong input dimension");
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    double q = 0;
    for (int j = 0; j < D; ++j) {
      const double t = z[j] - 1e-4 * p[i][j];
      q += a[i][j] * t * t;
    }
    s += kAlpha[i] * std::exp(-q);
  }
  return -s;
}

double square(double v) { return v * v; }

}  // namespace

int fixed_dimension(TestFunction f) {
  switch (f) {
    case TestFunction::branin:
      return 2;
    case TestFunction::hartmann3:
      return 3;
    case TestFunction::hartmann6:
      return 6;
    default:
      return 0;
  }
}

int min_dimension(TestFunction f) {
  return f == TestFunction::rosenbrock ? 2 : std::max(1, fixed_dimension(f));
}

Domain domain(TestFunction f, int d) {
  const auto box = [d](double lo, double hi) {
    return Domain{Eigen::VectorXd::Constant(d, lo), Eigen::VectorXd::Constant(d, hi)};
  };
  switch (f) {
    case TestFunction::branin:
      return {Eigen::Vector2d(-5, 0), Eigen::Vector2d(10, 15)};
    case TestFunction::hartmann3:
    case TestFunction::hartmann6:
      return box(0, 1);
    case TestFunction::ackley:
      return box(-32.768, 32.768);
    case TestFunction::levy:
      return box(-10, 10);
    case TestFunction::rosenbrock:
      return box(-5, 10);
  }
  throw std::logic_error("test_function::domain: unknown function");
}

double hartmann3(const Eigen::VectorXd& z) { return hartmann(kA3, kP3, z); }
double hartmann6(const Eigen::VectorXd& z) { return hartmann(kA6, kP6, z); }

// Written as 20 (1 - exp(-0.2 r)) + (e - exp(mean cos)): both terms are >= 0 and vanish
// exactly at z = 0 (cos 0 = 1, exp(1) = e rounded), so f(0) = 0 to the bit and no rounding
// makes a value below the minimum (a negative regret).
double ackley(const Eigen::VectorXd& z) {
  const double d = static_cast<double>(z.size());
  const double r = std::sqrt(z.squaredNorm() / d);
  double c = 0;
  for (Eigen::Index j = 0; j < z.size(); ++j) c += std::cos(2 * kPi * z[j]);
  return 20 * (1 - std::exp(-0.2 * r)) + (std::numbers::e - std::exp(c / d));
}

double levy(const Eigen::VectorXd& z) {
  const Eigen::Index d = z.size();
  const auto w = [&z](Eigen::Index i) { return 1 + (z[i] - 1) / 4; };
  double s = square(std::sin(kPi * w(0)));
  for (Eigen::Index i = 0; i + 1 < d; ++i)
    s += square(w(i) - 1) * (1 + 10 * square(std::sin(kPi * w(i) + 1)));
  const double wd = w(d - 1);
  return s + square(wd - 1) * (1 + square(std::sin(2 * kPi * wd)));
}

double rosenbrock(const Eigen::VectorXd& z) {
  double s = 0;
  for (Eigen::Index i = 0; i + 1 < z.size(); ++i)
    s += 100 * square(z[i + 1] - z[i] * z[i]) + square(z[i] - 1);
  return s;
}

double value(TestFunction f, const Eigen::VectorXd& z) {
  switch (f) {
    case TestFunction::branin:
      return branin::branin(z[0], z[1]);
    case TestFunction::hartmann3:
      return hartmann3(z);
    case TestFunction::hartmann6:
      return hartmann6(z);
    case TestFunction::ackley:
      return ackley(z);
    case TestFunction::levy:
      return levy(z);
    case TestFunction::rosenbrock:
      return rosenbrock(z);
  }
  throw std::logic_error("test_function::value: unknown function");
}

// Why each minimum over the domain is the minimum over R^d (agents' shifted copies are
// evaluated outside the domain):
// - branin >= s t = 10 / (8 pi) everywhere (a square plus s (1 - t) cos u + s), with equality
//   where the square vanishes and cos u = -1: f* = 5 / (4 pi), exactly.
// - hartmann: every P_ij lies in [0, 1] and every A_ij, alpha_i > 0, so moving z_j outside
//   [0, 1] back to the nearest bound brings it nearer to every P_ij and lowers f: the minimum
//   over R^d lies in [0, 1]^d. The values are f at the minimisers below, which Newton's method
//   (analytic gradient and Hessian, python3) found from the published points; the gradient
//   there is below 3e-15. The published -3.86278 and -3.32237 are these, rounded.
// - ackley, levy, rosenbrock: sums of terms >= 0 that all vanish at their minimiser.
double minimum(TestFunction f) {
  switch (f) {
    case TestFunction::branin:
      return -branin::optimum();
    case TestFunction::hartmann3:
      return -3.862779787332663;
    case TestFunction::hartmann6:
      return -3.322368011415515;
    case TestFunction::ackley:
    case TestFunction::levy:
    case TestFunction::rosenbrock:
      return 0;
  }
  throw std::logic_error("test_function::minimum: unknown function");
}

Eigen::VectorXd minimiser(TestFunction f, int d) {
  switch (f) {
    case TestFunction::branin:
      return Eigen::Vector2d(kPi, 2.275);
    case TestFunction::hartmann3:
      return Eigen::Vector3d(0.11458887665506896, 0.5556488946169301, 0.8525469846866774);
    case TestFunction::hartmann6: {
      Eigen::VectorXd z(6);
      z << 0.20168951100670543, 0.15001069182345797, 0.47687397422189703, 0.2753324304940561,
          0.31165161660011326, 0.6573005340656204;
      return z;
    }
    case TestFunction::ackley:
      return Eigen::VectorXd::Zero(d);
    case TestFunction::levy:
    case TestFunction::rosenbrock:
      return Eigen::VectorXd::Ones(d);
  }
  throw std::logic_error("test_function::minimiser: unknown function");
}

}  // namespace fbosim::datasets::test_function
