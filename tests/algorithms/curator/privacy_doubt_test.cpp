// The privacy doubt (docs/PRIVATE_BO.md), tested on the real curator: Algorithm 1
// multiplies on the right (Z = X~ M / sqrt(r)), so every column of Z lies in the column space
// of the centred X. A unit vector u orthogonal to that space and to the all-ones vector, with
// u_i* != 0, gives u^T Z = 0 for X and u^T Z' != 0 (almost surely) for a neighbour X' whose row
// i* moved by a vector of norm 1 (Definition 1). The test "Z is from X' iff |u^T Z| > tau"
// separates the two exactly, in both branches and with both lifts; its Clopper-Pearson bounds
// imply epsilon > the claimed epsilon = 1, which no (1, 1e-5)-DP release allows (Kairouz et al.
// 2015: epsilon >= log((1 - delta - FNR) / FPR) for any test). `fbosim audit` runs the same test
// on a config's dataset (algorithms/systems/curator_release_audit.hpp; numbers in
// docs/PRIVATE_BO.md).
#include <catch2/catch.hpp>

#include <boost/math/special_functions/beta.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "algorithms/curator/curator.hpp"
#include "algorithms/curator/separating_vector.hpp"

using namespace fbosim;
using curator::Lift;

namespace {

double statistic(const Eigen::VectorXd& u, const Eigen::MatrixXd& Z) {
  return (u.transpose() * Z).norm() / Z.norm();
}

double cp_upper(long long k, long long n, double c) {
  if (k >= n) return 1;
  return boost::math::ibeta_inv(static_cast<double>(k + 1), static_cast<double>(n - k), c);
}

struct Separation {
  long long false_positives = 0, false_negatives = 0, trials = 0;
  double max_null = 0, min_neighbour = 1;
  double epsilon_lower = 0;
};

Separation separate(const Eigen::MatrixXd& X, const Eigen::MatrixXd& X_neighbour,
                    const curator::CuratorOptions& o, int trials, double delta) {
  const Eigen::VectorXd u = curator::separating_vector(X, 0);
  std::vector<double> null(trials), alt(trials);
  for (int t = 0; t < trials; ++t) {
    core::RngStream a(1000 + t), b(900000 + t);
    null[t] = statistic(u, curator::release(X, o, a).Z);
    alt[t] = statistic(u, curator::release(X_neighbour, o, b).Z);
  }
  // tau from the first half of both: the geometric midpoint of the gap between the largest
  // null value (rounding, ~1e-15) and the smallest neighbour value; the rates on the second half.
  const int half = trials / 2;
  const double tau = std::sqrt(*std::max_element(null.begin(), null.begin() + half) *
                               *std::min_element(alt.begin(), alt.begin() + half));
  Separation s;
  s.trials = trials - half;
  for (int t = half; t < trials; ++t) {
    s.false_positives += null[t] > tau;
    s.false_negatives += alt[t] <= tau;
    s.max_null = std::max(s.max_null, null[t]);
    s.min_neighbour = std::min(s.min_neighbour, alt[t]);
  }
  const double level = 1 - 0.05 / 2;  // 95% for both rates together (Bonferroni)
  const double fpr = cp_upper(s.false_positives, s.trials, level);
  const double fnr = cp_upper(s.false_negatives, s.trials, level);
  s.epsilon_lower = std::max(0.0, std::log((1 - delta - fnr) / fpr));
  return s;
}

}  // namespace

TEST_CASE("privacy doubt: the curator's Z separates neighbouring datasets exactly") {
  core::RngStream data(2024);
  Eigen::MatrixXd X = data.normal_matrix(40, 2);
  X.col(1) = 0.5 * X.col(0) + X.col(1);  // correlated columns, full rank
  const double eps = 1, delta = 1e-5;
  const int r = 3;
  const double w = curator::omega(eps, delta, r);
  const double sigma_min = curator::transform(X, {eps, delta, r, Lift::paper}).sigma_min;
  // Else branch: the data as drawn (sigma_min ~ 5 << omega ~ 1500). If branch: the same data
  // scaled so that sigma_min = 2 omega.
  const Eigen::MatrixXd X_else = X, X_if = X * (2 * w / sigma_min);
  Eigen::RowVector2d v(0.6, 0.8);  // norm 1: a neighbour under Definition 1
  for (const bool lifted : {true, false}) {
    const Eigen::MatrixXd& D = lifted ? X_else : X_if;
    Eigen::MatrixXd D_neighbour = D;
    D_neighbour.row(0) += v;
    for (const Lift lift : {Lift::paper, Lift::authors}) {
      INFO((lifted ? "else branch" : "if branch")
           << ", lift " << (lift == Lift::paper ? "paper" : "authors"));
      const curator::CuratorOptions o{eps, delta, r, lift};
      REQUIRE(curator::transform(D, o).lifted == lifted);
      REQUIRE(curator::transform(D_neighbour, o).lifted == lifted);
      const Separation s = separate(D, D_neighbour, o, 400, delta);
      CHECK(s.false_positives == 0);
      CHECK(s.false_negatives == 0);
      CHECK(s.max_null < 1e-12);      // u^T Z = 0 up to rounding for X
      CHECK(s.min_neighbour > 1e-6);  // and clearly not for its neighbour
      // 200 trials each: epsilon >= log((1 - delta - 0.0183) / 0.0183) = 3.98 > claimed 1.
      CHECK(s.epsilon_lower > 3.9);
      CHECK(s.epsilon_lower > eps);
    }
  }
}

TEST_CASE(
    "separating_vector: a unit vector orthogonal to 1 and the centred columns, weight on row i") {
  core::RngStream rng(3);
  Eigen::MatrixXd X(40, 3);
  for (Eigen::Index i = 0; i < X.size(); ++i) X.data()[i] = rng.normal();
  const Eigen::MatrixXd centred = X.rowwise() - X.colwise().mean();
  for (const Eigen::Index i : {0, 17, 39}) {
    const Eigen::VectorXd u = curator::separating_vector(X, i);
    CHECK(u.norm() == Approx(1).margin(1e-12));
    CHECK(std::abs(u.sum()) < 1e-12);
    CHECK((centred.transpose() * u).norm() < 1e-12);
    CHECK(std::abs(u[i]) > 0.5);  // e_i loses at most its projection on a 4-dimensional space
  }
}
