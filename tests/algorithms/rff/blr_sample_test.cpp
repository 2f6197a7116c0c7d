#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Dense>

#include "algorithms/rff/blr_posterior.hpp"
#include "algorithms/rff/blr_sample.hpp"
#include "algorithms/rff/random_features.hpp"
#include "check_draw_moments.hpp"

using fbosim::core::RngStream;
using fbosim::rff::blr_sample;
using fbosim::rff::BlrPosterior;
using fbosim::rff::RandomFeatures;

TEST_CASE("the dual form (n < M) samples N(nu, lambda Sigma^-1) of eq. 2") {
  RngStream rng(21);
  const int n = 4, M = 6, draws = 40000;
  const double lambda = 0.1;
  const RandomFeatures f = RandomFeatures::draw(1, M, 0.3, 1.0, rng);
  const Eigen::MatrixXd Phi = f.features(rng.uniform_matrix(n, 1));
  const Eigen::VectorXd y = rng.normal_vector(n);
  BlrPosterior blr(M, lambda);
  blr.add(Phi, y);
  const Eigen::VectorXd nu = blr.mean();
  const Eigen::MatrixXd cov = blr.covariance();
  fbosim::testing::check_draw_moments([&] { return blr_sample(Phi, y, lambda, rng); }, nu, cov,
                                      draws);
}

TEST_CASE("the dual form is Matheron's rule on the draws w then e") {
  RngStream rng(22);
  const int n = 30, M = 100;
  const double lambda = 1e-6;  // landmine's: the worst-conditioned kernel matrix in the configs
  const RandomFeatures f = RandomFeatures::draw(1, M, 0.03, 1.0, rng);
  const Eigen::MatrixXd Phi = f.features(rng.uniform_matrix(n, 1));
  const Eigen::VectorXd y = rng.normal_vector(n);
  RngStream a(5), b(5);
  const Eigen::VectorXd omega = blr_sample(Phi, y, lambda, a);
  const Eigen::VectorXd w = b.normal_vector(M);
  const Eigen::VectorXd e = std::sqrt(lambda) * b.normal_vector(n);
  const Eigen::MatrixXd K = Phi * Phi.transpose() + lambda * Eigen::MatrixXd::Identity(n, n);
  const Eigen::VectorXd ref = w + Phi.transpose() * K.ldlt().solve(y - Phi * w - e);
  CHECK((omega - ref).norm() < 1e-6 * ref.norm());
  CHECK(a.normal_vector(3) == b.normal_vector(3));  // the same draws consumed
}

TEST_CASE("n >= M is BlrPosterior's sample, lambda <= 0 falls back to the prior draw") {
  RngStream rng(23);
  const int M = 10;
  const RandomFeatures f = RandomFeatures::draw(2, M, 0.3, 1.0, rng);
  const Eigen::MatrixXd Phi = f.features(rng.uniform_matrix(15, 2));
  const Eigen::VectorXd y = rng.normal_vector(15);
  BlrPosterior blr(M, 0.01);
  blr.add(Phi, y);
  RngStream a(6), b(6);
  CHECK(blr_sample(Phi, y, 0.01, a) == blr.sample(b));
  RngStream c(7), d(7);
  CHECK(blr_sample(Phi.topRows(4), y.head(4), -1.0, c) == d.normal_vector(M));
}
