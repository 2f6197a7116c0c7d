#pragma once
// The standard test functions of Bayesian optimisation, as functions to be minimised on their
// own domains: the definitions, domains and optima of Surjanovic & Bingham's Virtual Library of
// Simulation Experiments (www.sfu.ca/~ssurjano), which BoTorch's botorch.test_functions.synthetic
// implements (Balandat et al., NeurIPS 2020), so that results compare with BoTorch's.
//
// Each function is one self-describing row of a table (as each of BoTorch's
// SyntheticTestFunction classes carries its dim, bounds, optimal_value and optimizers): its
// name, its dimension (fixed, or a smallest d, or a list of the d it takes), its domain, value,
// optimum and a minimiser as functions of d. The family, its keys, their checks and the docs
// read the table; nothing else names a function, so a new one is a row and its formula
// (test_function.cpp), and an optimum that grows with d (Styblinski-Tang) is one more function
// of d. The rows, in the order of the docs and of the key's choices:
//   branin      Dixon & Szego 1978; [-5,10] x [0,15]; 5 / (4 pi) = 0.397887 at (pi, 2.275),
//               (-pi, 12.275), (3 pi, 2.475)
//   hartmann3   f = -sum_i alpha_i exp(-sum_j A_ij (z_j - P_ij)^2) on [0,1]^3; -3.86278
//   hartmann6   the same form on [0,1]^6; -3.32237
//   ackley      -20 exp(-0.2 sqrt(mean z^2)) - exp(mean cos(2 pi z)) + 20 + e on
//               [-32.768, 32.768]^d; 0 at 0
//   levy        sin^2(pi w_1) + sum_{i<d} (w_i - 1)^2 (1 + 10 sin^2(pi w_i + 1))
//               + (w_d - 1)^2 (1 + sin^2(2 pi w_d)), w = 1 + (z - 1) / 4, on [-10,10]^d; 0 at 1
//   rosenbrock  sum_{i<d} 100 (z_{i+1} - z_i^2)^2 + (z_i - 1)^2 on [-5,10]^d (d >= 2); 0 at 1
//   styblinski_tang  (1/2) sum_i (z_i^4 - 16 z_i^2 + 5 z_i) on [-5,5]^d; -39.16617 d at
//               z_i = -2.903534 (Styblinski & Tang 1990)
//   michalewicz -sum_i sin(z_i) sin^(2m)(i z_i^2 / pi), m = 10, on [0,pi]^d; d = 2, 5, 10 only
//               (the dimensions whose optimum BoTorch lists: -1.8013, -4.687658, -9.66015)
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

namespace fbosim::datasets::test_function {

/// A function's domain: z_j in [lower_j, upper_j] (d-vectors).
struct Domain {
  Eigen::VectorXd lower, upper;
};

/// One test function, described by itself.
struct TestFunction {
  std::string_view name;  ///< objective.function
  /// The input dimension when it is fixed (branin 2, hartmann3 3, hartmann6 6); 0: a function of
  /// any d >= min_dim (objective.function_dim) or, when `dims` is not empty, of those only.
  int fixed_dim = 0;
  int min_dim = 1;
  std::span<const int> dims{};
  std::string_view domain_text;  ///< the domain as the key's meaning gives it: "[-10,10]^d"
  Domain (*domain)(int d) = nullptr;
  /// f(z) on the function's own coordinates (z: d-vector; defined on all of R^d).
  double (*value)(const Eigen::VectorXd& z) = nullptr;
  /// f* = min f over the domain, which is also its minimum over the box the family's shifted
  /// inputs reach (the domain widened by its width on each side; test_function.cpp says why for
  /// each), so a shifted copy keeps f* wherever one minimiser stays inside.
  double (*optimum)(int d) = nullptr;
  /// A minimiser z* (d-vector) with f(z*) = f* to rounding.
  Eigen::VectorXd (*minimiser)(int d) = nullptr;

  /// The dimension the function has when `dim` is asked for: its fixed one, else `dim`.
  int dimension(int dim) const { return fixed_dim > 0 ? fixed_dim : dim; }
  /// Why d is not a dimension of this function, for objective.function_dim's message (empty:
  /// it is).
  std::string dimension_problem(int d) const;
};

/// Every test function, in the order of the docs and of objective.function's choices.
std::span<const TestFunction> functions();
/// Their names, in that order.
std::vector<std::string> function_names();
/// The function named `name`; throws std::invalid_argument naming the choices.
const TestFunction& find_function(std::string_view name);

double hartmann3(const Eigen::VectorXd& z);
double hartmann6(const Eigen::VectorXd& z);
double ackley(const Eigen::VectorXd& z);
double levy(const Eigen::VectorXd& z);
double rosenbrock(const Eigen::VectorXd& z);
double styblinski_tang(const Eigen::VectorXd& z);
double michalewicz(const Eigen::VectorXd& z);

}  // namespace fbosim::datasets::test_function
