// local_ts.redraw: refit (issue #13): features drawn once and kept, the posterior of DP-FTS-DE
// eq. 2 followed by rank-one updates and rebuilt at a change of the hyperparameters. Every
// reference below is computed here with Eigen from the frequencies and phases alone.
#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Dense>

#include "algorithms/rff/fixed_feature_blr.hpp"
#include "algorithms/rff/random_features.hpp"
#include "check_draw_moments.hpp"

using fbosim::core::RngStream;
using fbosim::rff::FixedFeatureBlr;
using fbosim::rff::RandomFeatures;

namespace {
// phi(x) of the base features rescaled to (l, v): sqrt(v) c / |c|, c_i = cos(s_i . x / l + b_i).
Eigen::MatrixXd reference_features(const RandomFeatures& base, const Eigen::MatrixXd& X, double l,
                                   double v) {
  Eigen::MatrixXd Phi(X.rows(), base.size());
  for (Eigen::Index j = 0; j < X.rows(); ++j) {
    Eigen::VectorXd c(base.size());
    for (int i = 0; i < base.size(); ++i)
      c[i] = std::cos(base.frequencies().row(i).dot(X.row(j)) / l + base.phases()[i]);
    Phi.row(j) = std::sqrt(v) * c.transpose() / c.norm();
  }
  return Phi;
}

// Eq. 2: Sigma = Phi^T Phi + lambda I, nu = Sigma^-1 Phi^T y, covariance lambda Sigma^-1.
struct Reference {
  Eigen::VectorXd nu;
  Eigen::MatrixXd cov;
};
Reference reference_posterior(const Eigen::MatrixXd& Phi, const Eigen::VectorXd& y, double lambda) {
  const Eigen::Index M = Phi.cols();
  const Eigen::MatrixXd sigma = Phi.transpose() * Phi + lambda * Eigen::MatrixXd::Identity(M, M);
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(sigma);
  return {lu.solve(Phi.transpose() * y), lambda * lu.inverse()};
}

double relative(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).norm() / b.norm();
}
}  // namespace

TEST_CASE("refit: rank-one updates give the posterior of a from-scratch BLR on the same features") {
  RngStream rng(31);
  const int M = 40, d = 2;
  const double l = 0.2, v = 1.3, lambda = 0.01;
  const RandomFeatures base = RandomFeatures::draw(d, M, 1.0, 1.0, rng);
  FixedFeatureBlr blr(base);
  CHECK(blr.set_hyper(l, v, lambda));
  const int n = 90;
  const Eigen::MatrixXd X = rng.uniform_matrix(n, d);
  const Eigen::VectorXd y = rng.normal_vector(n);
  const Eigen::MatrixXd Phi = reference_features(base, X, l, v);
  RngStream draws(32);
  for (int k = 1; k <= n; ++k) {
    blr.add(X.row(k - 1), y.segment(k - 1, 1));  // one observation: a rank-one update
    blr.sample(draws);                           // the factor is current before the next one
    if (k == 1 || k == 10 || k == M - 1 || k == M || k == M + 1 || k == n) {
      INFO("after " << k << " observations");
      CHECK(blr.observations() == k);
      const Reference ref = reference_posterior(Phi.topRows(k), y.head(k), lambda);
      CHECK(relative(blr.posterior().mean(), ref.nu) < 1e-9);
      CHECK(relative(blr.posterior().covariance(), ref.cov) < 1e-9);
    }
  }
  CHECK(blr.posterior().fallback_count() == 0);
}

TEST_CASE("refit: new hyperparameters rescale the kept features and rebuild the posterior") {
  RngStream rng(33);
  const int M = 30, d = 1, n = 50;
  RngStream copy = rng;
  const RandomFeatures base = RandomFeatures::draw(d, M, 1.0, 1.0, rng);
  const Eigen::MatrixXd X = rng.uniform_matrix(n, d);
  const Eigen::VectorXd y = rng.normal_vector(n);
  FixedFeatureBlr blr(base);
  blr.set_hyper(0.05, 1.0, 0.01);
  RngStream draws(34);
  for (int k = 0; k < n; ++k) {
    blr.add(X.row(k), y.segment(k, 1));
    blr.sample(draws);
  }
  CHECK_FALSE(blr.set_hyper(0.05, 1.0, 0.01));  // the same: nothing changes
  CHECK(blr.observations() == n);

  const double l = 0.3, v = 2.0, lambda = 0.05;
  CHECK(blr.set_hyper(l, v, lambda));
  CHECK(blr.observations() == 0);
  // The frequencies are the base's over l: the features draw() gives at l from the same draws.
  const RandomFeatures at_l = RandomFeatures::draw(d, M, l, v, copy);
  CHECK(blr.features().frequencies() == at_l.frequencies());
  CHECK(blr.features().phases() == at_l.phases());
  CHECK(blr.features().signal_var() == v);
  blr.add(X, y);  // the rebuild: all observations at once
  CHECK(blr.observations() == n);
  const Reference ref = reference_posterior(reference_features(base, X, l, v), y, lambda);
  CHECK(relative(blr.posterior().mean(), ref.nu) < 1e-9);
  CHECK(relative(blr.posterior().covariance(), ref.cov) < 1e-9);
  // Only the regulariser changes: still a rebuild.
  CHECK(blr.set_hyper(l, v, 0.02));
  CHECK(blr.observations() == 0);
}

TEST_CASE("refit: a draw has mean nu and covariance lambda Sigma^-1 (eq. 2) given the features") {
  RngStream rng(35);
  const int M = 6, d = 1, n = 9, draws = 40000;
  const double l = 0.3, v = 1.0, lambda = 0.1;
  const RandomFeatures base = RandomFeatures::draw(d, M, 1.0, 1.0, rng);
  const Eigen::MatrixXd X = rng.uniform_matrix(n, d);
  const Eigen::VectorXd y = rng.normal_vector(n);
  FixedFeatureBlr blr(base);
  blr.set_hyper(l, v, lambda);
  for (int k = 0; k < n; ++k) blr.add(X.row(k), y.segment(k, 1));
  const Reference ref = reference_posterior(reference_features(base, X, l, v), y, lambda);
  fbosim::testing::check_draw_moments([&] { return blr.sample(rng); }, ref.nu, ref.cov, draws);
}

TEST_CASE("refit: use before set_hyper is an error, and from() checks its arguments") {
  RngStream rng(36);
  FixedFeatureBlr blr(RandomFeatures::draw(1, 5, 1.0, 1.0, rng));
  CHECK_THROWS_AS(blr.features(), std::logic_error);
  CHECK_THROWS_AS(blr.add(Eigen::MatrixXd::Zero(1, 1), Eigen::VectorXd::Zero(1)), std::logic_error);
  CHECK_THROWS_AS(blr.set_hyper(0.0, 1.0, 0.01), std::invalid_argument);
  CHECK_THROWS_AS(RandomFeatures::from(Eigen::MatrixXd::Zero(3, 1), Eigen::VectorXd::Zero(2), 1.0),
                  std::invalid_argument);
}
