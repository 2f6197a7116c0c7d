#pragma once
// The standard test functions of Bayesian optimisation, as functions to be minimised on their
// own domains: the definitions, domains and optima of Surjanovic & Bingham's Virtual Library of
// Simulation Experiments (www.sfu.ca/~ssurjano), which BoTorch's botorch.test_functions.synthetic
// implements (Balandat et al., NeurIPS 2020), so that results compare with BoTorch's.
//   branin      Dixon & Szego 1978; [-5,10] x [0,15]; 5 / (4 pi) = 0.397887 at (pi, 2.275),
//               (-pi, 12.275), (3 pi, 2.475)
//   hartmann3   f = -sum_i alpha_i exp(-sum_j A_ij (z_j - P_ij)^2) on [0,1]^3; -3.86278
//   hartmann6   the same form on [0,1]^6; -3.32237
//   ackley      -20 exp(-0.2 sqrt(mean z^2)) - exp(mean cos(2 pi z)) + 20 + e on
//               [-32.768, 32.768]^d; 0 at 0
//   levy        sin^2(pi w_1) + sum_{i<d} (w_i - 1)^2 (1 + 10 sin^2(pi w_i + 1))
//               + (w_d - 1)^2 (1 + sin^2(2 pi w_d)), w = 1 + (z - 1) / 4, on [-10,10]^d; 0 at 1
//   rosenbrock  sum_{i<d} 100 (z_{i+1} - z_i^2)^2 + (z_i - 1)^2 on [-5,10]^d (d >= 2); 0 at 1
#include <Eigen/Core>

#include "sim/schema/enum_names.hpp"

namespace fbosim::datasets::test_function {

enum class TestFunction { branin, hartmann3, hartmann6, ackley, levy, rosenbrock };

inline constexpr schema::EnumNames<TestFunction> kTestFunctionNames{
    {TestFunction::branin, "branin"},       {TestFunction::hartmann3, "hartmann3"},
    {TestFunction::hartmann6, "hartmann6"}, {TestFunction::ackley, "ackley"},
    {TestFunction::levy, "levy"},           {TestFunction::rosenbrock, "rosenbrock"}};

/// The input dimension of branin (2), hartmann3 (3) and hartmann6 (6); 0 for the functions of
/// any dimension d (ackley, levy, rosenbrock: `objective.function_dim`).
int fixed_dimension(TestFunction f);
/// The smallest d a function of any dimension takes (rosenbrock 2, ackley and levy 1).
int min_dimension(TestFunction f);

/// The function's domain: z_j in [lower_j, upper_j] (d-vectors).
struct Domain {
  Eigen::VectorXd lower, upper;
};
Domain domain(TestFunction f, int d);

/// f(z) on the function's own coordinates (z: d-vector; defined on all of R^d).
double value(TestFunction f, const Eigen::VectorXd& z);
/// f* = min f over the domain, which is also its minimum over R^d (test_function.cpp says why
/// for each), so a shifted copy keeps f* wherever one minimiser stays inside.
double minimum(TestFunction f);
/// A minimiser z* (d-vector) with f(z*) = f* (Hartmann's to double precision: the published
/// points are rounded to six digits).
Eigen::VectorXd minimiser(TestFunction f, int d);

double hartmann3(const Eigen::VectorXd& z);
double hartmann6(const Eigen::VectorXd& z);
double ackley(const Eigen::VectorXd& z);
double levy(const Eigen::VectorXd& z);
double rosenbrock(const Eigen::VectorXd& z);

}  // namespace fbosim::datasets::test_function
