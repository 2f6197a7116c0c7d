#include "datasets/test_function/test_function.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

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

// Evaluated as the sum of its coordinates' terms, as the optimum is (d times one term's minimum).
double styblinski_tang(const Eigen::VectorXd& z) {
  double s = 0;
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    const double t = z[i] * z[i];
    s += t * t - 16 * t + 5 * z[i];
  }
  return s / 2;
}

// sin^(2m) with m = 10 by squarings (the same bits wherever glibc's sin gives them).
double michalewicz(const Eigen::VectorXd& z) {
  double s = 0;
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    const double u = std::sin(static_cast<double>(i + 1) * z[i] * z[i] / kPi);
    const double u2 = u * u, u4 = u2 * u2, u16 = square(square(u4));
    s -= std::sin(z[i]) * u16 * u4;
  }
  return s;
}

namespace {

Domain box(int d, double lo, double hi) {
  return Domain{Eigen::VectorXd::Constant(d, lo), Eigen::VectorXd::Constant(d, hi)};
}

// Styblinski-Tang's coordinate minimum: the smaller root of 4 z^3 - 32 z + 5 = 0 (the quartic's
// global minimum over R) and (z^4 - 16 z^2 + 5 z) / 2 there, by mpmath at 40 digits, rounded;
// the literature's -39.16617 and -2.903534 (Surjanovic & Bingham; BoTorch: -39.166166 d).
constexpr double kStyblinskiTangZ = -2.903534027771177;
constexpr double kStyblinskiTangMin = -39.16616570377141;

// Michalewicz (m = 10) is a sum of one term per coordinate, so its minimum on [0,pi]^d is the sum
// of each coordinate's: z_i* minimises -sin(z) sin^20(i z^2 / pi) on [0, pi], found on a grid of
// 200,001 points and refined by bisection of the derivative (mpmath, 50 digits). The sums for
// d = 2, 5, 10 are the optima BoTorch lists (-1.80130341, -4.687658, -9.66015), rounded there.
// Outside [0, pi] but within [-pi, 2 pi] (what shifted inputs reach) sin(z) <= 0, so each term
// is >= 0 >= its minimum inside: the minimum over that box is the same.
constexpr double kMichalewiczZ[10] = {2.2029055201726093, 1.5707963267948966, 1.2849915705529245,
                                      1.9230584698663629, 1.7204697725658413, 1.5707963267948966,
                                      1.454413971362379,  1.7560865209450263, 1.6557174168210291,
                                      1.5707963267948966};
constexpr int kMichalewiczDims[] = {2, 5, 10};

double michalewicz_optimum(int d) {
  switch (d) {
    case 2:
      return -1.8013034100985525;
    case 5:
      return -4.687658179088146;
    case 10:
      return -9.66015171564134;
    default:
      throw std::invalid_argument(fmt::format("michalewicz: no known optimum for d = {}", d));
  }
}

Eigen::VectorXd constant(int d, double v) { return Eigen::VectorXd::Constant(d, v); }

// Why each minimum over the domain is the minimum over R^d (and so over the widened box that
// shifted inputs reach):
// - branin >= s t = 10 / (8 pi) everywhere (a square plus s (1 - t) cos u + s), with equality
//   where the square vanishes and cos u = -1: f* = 5 / (4 pi), exactly.
// - hartmann: every P_ij lies in [0, 1] and every A_ij, alpha_i > 0, so moving z_j outside
//   [0, 1] back to the nearest bound brings it nearer to every P_ij and lowers f: the minimum
//   over R^d lies in [0, 1]^d. The values are f at the minimisers below, which Newton's method
//   (analytic gradient and Hessian, python3) found from the published points; the gradient
//   there is below 3e-15. The published -3.86278 and -3.32237 are these, rounded.
// - ackley, levy, rosenbrock: sums of terms >= 0 that all vanish at their minimiser.
// - styblinski_tang: a sum of one quartic per coordinate, each at its global minimum.
// - michalewicz: over the widened box only (above).
constexpr TestFunction kFunctions[] = {
    {.name = "branin",
     .fixed_dim = 2,
     .min_dim = 2,
     .domain_text = "[-5,10]x[0,15]",
     .domain =
         [](int) {
           return Domain{Eigen::Vector2d(-5, 0), Eigen::Vector2d(10, 15)};
         },
     .value = [](const Eigen::VectorXd& z) { return branin::branin(z[0], z[1]); },
     .optimum = [](int) { return -branin::optimum(); },
     .minimiser = [](int) -> Eigen::VectorXd { return Eigen::Vector2d(kPi, 2.275); }},
    {.name = "hartmann3",
     .fixed_dim = 3,
     .min_dim = 3,
     .domain_text = "[0,1]^3",
     .domain = [](int d) { return box(d, 0, 1); },
     .value = hartmann3,
     .optimum = [](int) { return -3.862779787332663; },
     .minimiser = [](int) -> Eigen::VectorXd {
       return Eigen::Vector3d(0.11458887665506896, 0.5556488946169301, 0.8525469846866774);
     }},
    {.name = "hartmann6",
     .fixed_dim = 6,
     .min_dim = 6,
     .domain_text = "[0,1]^6",
     .domain = [](int d) { return box(d, 0, 1); },
     .value = hartmann6,
     .optimum = [](int) { return -3.322368011415515; },
     .minimiser =
         [](int) {
           Eigen::VectorXd z(6);
           z << 0.20168951100670543, 0.15001069182345797, 0.47687397422189703, 0.2753324304940561,
               0.31165161660011326, 0.6573005340656204;
           return z;
         }},
    {.name = "ackley",
     .domain_text = "[-32.768,32.768]^d",
     .domain = [](int d) { return box(d, -32.768, 32.768); },
     .value = ackley,
     .optimum = [](int) { return 0.0; },
     .minimiser = [](int d) { return constant(d, 0); }},
    {.name = "levy",
     .domain_text = "[-10,10]^d",
     .domain = [](int d) { return box(d, -10, 10); },
     .value = levy,
     .optimum = [](int) { return 0.0; },
     .minimiser = [](int d) { return constant(d, 1); }},
    {.name = "rosenbrock",
     .min_dim = 2,
     .domain_text = "[-5,10]^d",
     .domain = [](int d) { return box(d, -5, 10); },
     .value = rosenbrock,
     .optimum = [](int) { return 0.0; },
     .minimiser = [](int d) { return constant(d, 1); }},
    {.name = "styblinski_tang",
     .domain_text = "[-5,5]^d",
     .domain = [](int d) { return box(d, -5, 5); },
     .value = styblinski_tang,
     .optimum = [](int d) { return d * kStyblinskiTangMin; },
     .minimiser = [](int d) { return constant(d, kStyblinskiTangZ); }},
    {.name = "michalewicz",
     .min_dim = 2,
     .dims = kMichalewiczDims,
     .domain_text = "[0,pi]^d",
     .domain = [](int d) { return box(d, 0, kPi); },
     .value = michalewicz,
     .optimum = michalewicz_optimum,
     .minimiser = [](int d) -> Eigen::VectorXd {
       michalewicz_optimum(d);  // refuses a d without a known optimum
       return Eigen::Map<const Eigen::VectorXd>(kMichalewiczZ, d);
     }},
};

}  // namespace

std::string TestFunction::dimension_problem(int d) const {
  const std::string n(name);
  if (fixed_dim > 0)
    return d == fixed_dim ? "" : fmt::format("{} has dimension {} only", n, fixed_dim);
  if (d < min_dim) return fmt::format("must be >= {} for {}", min_dim, n);
  if (!dims.empty() && std::find(dims.begin(), dims.end(), d) == dims.end())
    return fmt::format("{} takes d = {} only (the dimensions whose optimum is published)", n,
                       fmt::join(dims, ", "));
  return "";
}

std::span<const TestFunction> functions() { return kFunctions; }

std::vector<std::string> function_names() {
  std::vector<std::string> out;
  for (const TestFunction& f : kFunctions) out.emplace_back(f.name);
  return out;
}

const TestFunction& find_function(std::string_view name) {
  for (const TestFunction& f : kFunctions)
    if (f.name == name) return f;
  throw std::invalid_argument(fmt::format("unknown test function '{}'; known: {}", name,
                                          fmt::join(function_names(), ", ")));
}

}  // namespace fbosim::datasets::test_function
