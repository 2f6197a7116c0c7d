// PO-GP-UCB's synthetic dataset: the grid's order, the nearest-point lookup, and draws whose
// covariance is the SE kernel on the centred grid scaled to the maximal norm (Monte Carlo).
#include <catch2/catch.hpp>

#include <cmath>

#include "datasets/synthetic/grid2d_objective.hpp"

using namespace fbosim;
using namespace fbosim::datasets;

TEST_CASE("the 2-D grid: row i + k j is (i, j) / (k - 1), evaluate takes the nearest point") {
  const Eigen::MatrixXd g = unit_square_grid(5);
  REQUIRE(g.rows() == 25);
  CHECK(g.row(0) == Eigen::RowVector2d(0, 0));
  CHECK(g.row(1) == Eigen::RowVector2d(0.25, 0));
  CHECK(g.row(5) == Eigen::RowVector2d(0, 0.25));
  CHECK(g.row(24) == Eigen::RowVector2d(1, 1));
  auto d = std::make_shared<core::Domain>();
  d->dim = 2;
  d->grid = g;
  const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(25, 0, 24);
  const Grid2dObjective o(d, 5, v, 0.0);
  CHECK(o.evaluate(Eigen::Vector2d(0.26, 0.49)) == 1 + 5 * 2);
  CHECK(o.evaluate(Eigen::Vector2d(1, 1)) == 24);
  CHECK(*o.optimum() == 24);
  core::RngStream rng(1);
  CHECK(o.observe(Eigen::Vector2d(0, 0), rng) == 0);  // noise-free
}

TEST_CASE("grid draws have the SE covariance measured after scaling to the maximal norm") {
  // k = 4: the centred grid's corners have norm sqrt(2)/2 in unit coordinates; scaled to norm
  // 25 every distance grows by 25 / (sqrt(2)/2). With l = 20 (scaled units) the covariance of
  // points p, q is exp(-|s (p - q)|^2 / (2 l^2)).
  const int k = 4, draws = 40000;
  const double l = 20, norm = 25, s = norm / (std::sqrt(2.0) / 2);
  const Eigen::MatrixXd g = unit_square_grid(k);
  core::RngStream rng(99);
  Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(k * k, k * k);
  for (int t = 0; t < draws; ++t) {
    const Eigen::VectorXd f = sample_grid2d(k, l, norm, rng);
    cov += f * f.transpose();
  }
  cov /= draws;
  for (int p = 0; p < k * k; p += 3)
    for (int q = 0; q < k * k; q += 5) {
      const double want = std::exp(-(s * (g.row(p) - g.row(q))).squaredNorm() / (2 * l * l));
      INFO("points " << p << ", " << q);
      // sd of a product of two unit normals <= sqrt(2): 5 standard errors.
      CHECK(std::abs(cov(p, q) - want) < 5 * std::sqrt(2.0 / draws));
    }
}
