// PO-GP-UCB's curator (Kharkovskii, Dai & Low 2020, Algorithm 1) against independent
// computations: omega's reconstructed formula, the singular values of the paper's synthetic grid
// in closed form, the branch outcomes of spec po-gp-ucb.md sec. 6.6, the lift, the projection.
#include <catch2/catch.hpp>

#include <Eigen/SVD>

#include <cmath>
#include <vector>

#include "algorithms/curator/curator.hpp"

using namespace fbosim;
using curator::CuratorOptions;
using curator::Lift;

namespace {

// The paper's synthetic inputs: a 100 x 100 uniform grid, centred and scaled to maximal norm
// 25 (spec sec. 6.6: the symmetric grid on [-a, a]^2 with a = 25 / sqrt(2)).
Eigen::MatrixXd paper_grid(int k = 100) {
  const double a = 25 / std::sqrt(2.0);
  Eigen::MatrixXd X(k * k, 2);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      X(i + k * j, 0) = -a + 2 * a * i / (k - 1);
      X(i + k * j, 1) = -a + 2 * a * j / (k - 1);
    }
  return X;
}

// omega written out: 16 sqrt(r ln(2/delta)) ln(16 r / delta) / epsilon.
double omega_by_hand(double eps, double delta, int r) {
  return 16 * std::sqrt(r * std::log(2 / delta)) * std::log(16 * r / delta) / eps;
}

}  // namespace

TEST_CASE("omega: the reconstructed line 5 at the spec's check values") {
  CHECK(curator::omega(std::exp(1.1), 1e-5, 10) == Approx(976.1).epsilon(1e-4));
  CHECK(curator::omega(std::exp(2.8), 1e-4, 15) == Approx(174.2).epsilon(1e-3));
  for (int r : {1, 3, 10, 50})
    CHECK(curator::omega(1.7, 1e-3, r) == Approx(omega_by_hand(1.7, 1e-3, r)).epsilon(1e-14));
  // Increasing in r, decreasing in epsilon and delta (spec sec. 3.5).
  CHECK(curator::omega(1, 1e-5, 11) > curator::omega(1, 1e-5, 10));
  CHECK(curator::omega(2, 1e-5, 10) < curator::omega(1, 1e-5, 10));
  CHECK(curator::omega(1, 1e-4, 10) < curator::omega(1, 1e-5, 10));
  CHECK_THROWS_AS(curator::omega(0, 1e-5, 10), std::invalid_argument);
  CHECK_THROWS_AS(curator::omega(1, 1, 10), std::invalid_argument);
  CHECK_THROWS_AS(curator::omega(1, 1e-5, 0), std::invalid_argument);
}

TEST_CASE(
    "the synthetic grid: sigma_min in closed form and the branch outcomes the paper reports") {
  const Eigen::MatrixXd X = paper_grid();
  // Closed form: the centred symmetric grid has X^T X = diag(s^2, s^2) with
  // s^2 = k a^2 sum_j (2 j / (k - 1) - 1)^2.
  const int k = 100;
  const double a = 25 / std::sqrt(2.0);
  double sum = 0;
  for (int j = 0; j < k; ++j) sum += std::pow(2.0 * j / (k - 1) - 1, 2);
  const double sigma = std::sqrt(k * a * a * sum);
  CHECK(sigma == Approx(1030.9).epsilon(1e-4));
  CHECK(X.rowwise().norm().maxCoeff() == Approx(25).epsilon(1e-14));
  // (epsilon exponent, r) -> the branch the paper reports (Fig. 2a, Tables 1-3): true = else.
  struct Case {
    double log_eps;
    int r;
    bool lifted;
  };
  const std::vector<Case> cases = {
      // Table 1, epsilon = e^1.1: largest r in the if branch is 10 (also Fig. 2a's if branch).
      {1.1, 3, false},
      {1.1, 6, false},
      {1.1, 8, false},
      {1.1, 10, false},
      {1.1, 15, true},
      {1.1, 20, true},
      // Table 2, e^1.3: 15.
      {1.3, 3, false},
      {1.3, 9, false},
      {1.3, 12, false},
      {1.3, 15, false},
      {1.3, 20, true},
      {1.3, 30, true},
      // Table 3, e^1.5: 20.
      {1.5, 5, false},
      {1.5, 10, false},
      {1.5, 15, false},
      {1.5, 20, false},
      {1.5, 30, true},
      {1.5, 50, true},
      // Fig. 2a at r = 10: e^0.9 and e^0 in the else branch (e^1.0 too: sec. 6.6).
      {0.9, 10, true},
      {0.0, 10, true},
      {1.0, 10, true}};
  for (const Case& c : cases) {
    INFO("epsilon = e^" << c.log_eps << ", r = " << c.r);
    const double w = omega_by_hand(std::exp(c.log_eps), 1e-5, c.r);
    CHECK((sigma < w) == c.lifted);  // the arithmetic itself
    for (Lift lift : {Lift::paper, Lift::authors}) {
      const curator::Transform t = curator::transform(X, {std::exp(c.log_eps), 1e-5, c.r, lift});
      CHECK(t.sigma_min == Approx(sigma).epsilon(1e-10));
      CHECK(t.singular_values[0] == Approx(sigma).epsilon(1e-10));
      CHECK(t.omega == Approx(w).epsilon(1e-14));
      CHECK(t.lifted == c.lifted);
    }
  }
  // The readings the spec rules out contradict the paper: a radical over the whole expression
  // puts r = 10 at epsilon = e^0.9 in the if branch ...
  const double whole_root =
      16 * std::sqrt(10 * std::log(2e5) * std::log(160 / 1e-5)) / std::exp(0.9);
  CHECK(sigma >= whole_root);
  // ... and scaling a [0, b]^2 grid to norm 25 before centring halves sigma_min (about 515), so
  // r = 10 at e^1.1 would fall in the else branch.
  Eigen::MatrixXd before = X.rowwise() - X.colwise().minCoeff();
  before *= 25 / before.rowwise().norm().maxCoeff();
  const curator::Transform t_before =
      curator::transform(before, {std::exp(1.1), 1e-5, 10, Lift::paper});
  CHECK(t_before.sigma_min == Approx(sigma / 2).epsilon(1e-10));
  CHECK(t_before.lifted);
}

TEST_CASE("normalise centres and scales to the maximal norm") {
  Eigen::MatrixXd X(4, 2);
  X << 0, 0, 1, 0, 0, 1, 1, 1;
  const curator::Normalised nx = curator::normalise(X, 25);
  CHECK(nx.centre(0) == 0.5);
  CHECK(nx.centre(1) == 0.5);
  CHECK(nx.X.colwise().mean().norm() < 1e-14);
  CHECK(nx.X.rowwise().norm().maxCoeff() == Approx(25).epsilon(1e-14));
  CHECK(nx.scale == Approx(25 / std::sqrt(0.5)).epsilon(1e-14));
  CHECK_THROWS_AS(curator::normalise(Eigen::MatrixXd::Ones(3, 2), 25), std::invalid_argument);
}

TEST_CASE("the lift: singular values sqrt(s^2 + w^2) (paper) or s + w (authors), same vectors") {
  core::RngStream rng(7);
  Eigen::MatrixXd X = rng.normal_matrix(60, 3);
  X.col(1) *= 3;
  const Eigen::MatrixXd Xc = X.rowwise() - X.colwise().mean();
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(Xc, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Eigen::VectorXd s = svd.singularValues();
  for (Lift lift : {Lift::paper, Lift::authors}) {
    const curator::Transform t = curator::transform(X, {0.5, 1e-3, 4, lift});
    REQUIRE(t.lifted);  // omega is in the hundreds, the data's singular values near 10
    for (int i = 0; i < 3; ++i) CHECK(t.singular_values[i] == Approx(s[i]).epsilon(1e-10));
    const Eigen::JacobiSVD<Eigen::MatrixXd> lifted(t.X_tilde,
                                                   Eigen::ComputeThinU | Eigen::ComputeThinV);
    for (int i = 0; i < 3; ++i) {
      const double want =
          lift == Lift::paper ? std::sqrt(s[i] * s[i] + t.omega * t.omega) : s[i] + t.omega;
      CHECK(lifted.singularValues()[i] == Approx(want).epsilon(1e-10));
      CHECK(std::abs(lifted.matrixV().col(i).dot(svd.matrixV().col(i))) == Approx(1).epsilon(1e-9));
      CHECK(std::abs(lifted.matrixU().col(i).dot(svd.matrixU().col(i))) == Approx(1).epsilon(1e-9));
    }
  }
  // If branch: the centred X itself.
  const curator::Transform t = curator::transform(1e4 * X, {5, 1e-3, 4, Lift::paper});
  REQUIRE_FALSE(t.lifted);
  CHECK((t.X_tilde - 1e4 * Xc).norm() < 1e-9 * (1e4 * Xc).norm());
  // A rank-deficient centred X cannot be lifted.
  Eigen::MatrixXd flat = X;
  flat.col(2) = flat.col(0);
  CHECK_THROWS_WITH(curator::transform(flat, {0.5, 1e-3, 4, Lift::paper}),
                    Catch::Matchers::Contains("rank-deficient"));
}

TEST_CASE("release: Z = X~ M / sqrt(r), M row by row from the stream, distances kept for large r") {
  core::RngStream data(3);
  const Eigen::MatrixXd X = 1e4 * data.normal_matrix(30, 2);
  const CuratorOptions o{10, 1e-3, 2000, Lift::paper};
  core::RngStream rng(11), same(11);
  const curator::Release rel = curator::release(X, o, rng);
  REQUIRE_FALSE(rel.transform.lifted);
  const Eigen::MatrixXd M = same.normal_matrix(2, 2000);
  CHECK((rel.Z - rel.transform.X_tilde * M / std::sqrt(2000.0)).norm() < 1e-9 * rel.Z.norm());
  // Johnson-Lindenstrauss: ||z_i - z_j||^2 / ||x_i - x_j||^2 -> 1 (within 15% at r = 2000).
  for (int i = 0; i < 30; i += 7)
    for (int j = i + 1; j < 30; j += 5) {
      const double ratio =
          (rel.Z.row(i) - rel.Z.row(j)).squaredNorm() / (X.row(i) - X.row(j)).squaredNorm();
      CHECK(std::abs(ratio - 1) < 0.15);
    }
}
