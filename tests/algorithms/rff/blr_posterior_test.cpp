#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Dense>

#include "algorithms/rff/blr_posterior.hpp"
#include "algorithms/rff/random_features.hpp"
#include "check_draw_moments.hpp"

using fbosim::core::RngStream;
using fbosim::rff::BlrPosterior;
using fbosim::rff::RandomFeatures;

TEST_CASE("M-space posterior (eq. 2) equals the kernel-space GP posterior with K = Phi Phi^T") {
  RngStream rng(10);
  const double lambda = 0.01;
  // n < M and n > M: the identity holds either way.
  for (auto [n, M] : {std::pair{15, 40}, std::pair{60, 20}}) {
    const RandomFeatures f = RandomFeatures::draw(2, M, 0.2, 1.5, rng);
    const Eigen::MatrixXd Phi = f.features(rng.uniform_matrix(n, 2));
    const Eigen::VectorXd y = rng.normal_vector(n);
    BlrPosterior blr(M, lambda);
    blr.add(Phi, y);
    const Eigen::VectorXd nu = blr.mean();
    const Eigen::MatrixXd cov = blr.covariance();
    // t-space: k(x, x') = phi(x) . phi(x'), solved with an independent factorisation.
    const Eigen::MatrixXd K = Phi * Phi.transpose();
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(K + lambda * Eigen::MatrixXd::Identity(n, n));
    const Eigen::MatrixXd Phi_star = f.features(rng.uniform_matrix(25, 2));
    for (int j = 0; j < Phi_star.rows(); ++j) {
      const Eigen::VectorXd phi = Phi_star.row(j).transpose();
      const Eigen::VectorXd k_star = Phi * phi;
      const double mean_t = k_star.dot(ldlt.solve(y));
      const double var_t = phi.squaredNorm() - k_star.dot(ldlt.solve(k_star));
      CHECK(phi.dot(nu) == Approx(mean_t).epsilon(1e-8).margin(1e-10));
      CHECK(phi.dot(cov * phi) == Approx(var_t).epsilon(1e-8).margin(1e-10));
    }
    CHECK(blr.observations() == n);
    CHECK(blr.fallback_count() == 0);
  }
}

TEST_CASE("adding one observation at a time equals adding the batch") {
  RngStream rng(11);
  const int n = 30, M = 25;
  const RandomFeatures f = RandomFeatures::draw(1, M, 0.1, 1.0, rng);
  const Eigen::MatrixXd Phi = f.features(rng.uniform_matrix(n, 1));
  const Eigen::VectorXd y = rng.normal_vector(n);
  BlrPosterior one(M, 0.05), batch(M, 0.05);
  batch.add(Phi.topRows(10), y.head(10));
  for (int j = 0; j < n; ++j) one.add(Eigen::VectorXd(Phi.row(j).transpose()), y[j]);
  batch.add(Phi.bottomRows(n - 10), y.tail(n - 10));
  CHECK(one.observations() == batch.observations());
  CHECK((one.mean() - batch.mean()).norm() < 1e-10 * batch.mean().norm());
  CHECK((one.covariance() - batch.covariance()).norm() < 1e-10 * batch.covariance().norm());
  RngStream r1(3), r2(3);
  CHECK((one.sample(r1) - batch.sample(r2)).norm() < 1e-9);
}

TEST_CASE("samples have mean nu and covariance lambda Sigma^-1") {
  RngStream rng(12);
  const int n = 8, M = 5, draws = 40000;
  const double lambda = 0.1;
  const RandomFeatures f = RandomFeatures::draw(1, M, 0.3, 1.0, rng);
  const Eigen::MatrixXd Phi = f.features(rng.uniform_matrix(n, 1));
  const Eigen::VectorXd y = rng.normal_vector(n);
  BlrPosterior blr(M, lambda);
  blr.add(Phi, y);
  // Independent reference: Sigma = Phi^T Phi + lambda I inverted directly.
  const Eigen::MatrixXd sigma = Phi.transpose() * Phi + lambda * Eigen::MatrixXd::Identity(M, M);
  const Eigen::VectorXd nu = sigma.inverse() * Phi.transpose() * y;
  const Eigen::MatrixXd cov = lambda * sigma.inverse();
  CHECK((blr.mean() - nu).norm() < 1e-9 * nu.norm());
  CHECK((blr.covariance() - cov).norm() < 1e-9 * cov.norm());
  fbosim::testing::check_draw_moments([&] { return blr.sample(rng); }, nu, cov, draws);
  CHECK(blr.fallback_count() == 0);
}

TEST_CASE("lambda = 1e-6 (real-world setting) still factorises in double precision") {
  RngStream rng(13);
  const int n = 200, M = 100;
  const RandomFeatures f = RandomFeatures::draw(1, M, 0.03, 1.0, rng);
  const Eigen::MatrixXd Phi = f.features(rng.uniform_matrix(n, 1));
  const Eigen::VectorXd y = rng.normal_vector(n);
  BlrPosterior blr(M, 1e-6);
  blr.add(Phi, y);
  const Eigen::VectorXd omega = blr.sample(rng);
  CHECK(omega.allFinite());
  CHECK(blr.fallback_count() == 0);
  // nu solves Sigma nu = Phi^T y.
  const Eigen::MatrixXd sigma = Phi.transpose() * Phi + 1e-6 * Eigen::MatrixXd::Identity(M, M);
  const Eigen::VectorXd rhs = Phi.transpose() * y;
  CHECK((sigma * blr.mean() - rhs).norm() < 1e-6 * rhs.norm());
}

TEST_CASE("a non positive definite Sigma falls back to a counted N(0, I) draw") {
  const int M = 6;
  SECTION("negative lambda") {
    BlrPosterior blr(M, -1.0);
    RngStream rng(7), ref(7);
    const Eigen::VectorXd omega = blr.sample(rng);
    CHECK(omega == ref.normal_vector(M));  // data-independent standard normal
    CHECK(blr.fallback_count() == 1);
    CHECK(blr.sample(rng).allFinite());
    CHECK(blr.fallback_count() == 2);
    CHECK(blr.mean() == Eigen::VectorXd::Zero(M));
    CHECK(blr.covariance() == Eigen::MatrixXd::Identity(M, M));
  }
  SECTION("NaN observation or NaN feature") {
    RngStream rng(8);
    BlrPosterior bad_y(M, 0.1), bad_phi(M, 0.1);
    bad_y.add(Eigen::VectorXd::Constant(M, 0.4), std::nan(""));
    Eigen::VectorXd phi = Eigen::VectorXd::Constant(M, 0.4);
    phi[2] = std::nan("");
    bad_phi.add(phi, 1.0);
    CHECK(bad_y.sample(rng).allFinite());
    CHECK(bad_phi.sample(rng).allFinite());
    CHECK(bad_y.fallback_count() == 1);
    CHECK(bad_phi.fallback_count() == 1);
  }
}

TEST_CASE("rank-one updates of the factor agree with a fresh factorisation") {
  // lambda = 1e-6 as on landmine: the worst-conditioned Sigma the configs use.
  for (const double lambda : {0.01, 1e-6}) {
    RngStream rng(12);
    const int n = 120, M = 40;
    const RandomFeatures f = RandomFeatures::draw(2, M, 0.2, 1.0, rng);
    const Eigen::MatrixXd Phi = f.features(rng.uniform_matrix(n, 2));
    const Eigen::VectorXd y = rng.normal_vector(n);
    BlrPosterior updated(M, lambda);
    updated.add(Phi.topRows(5), y.head(5));
    for (int j = 5; j < n; ++j) {
      updated.mean();  // factor current: the next add is a rank-one update
      updated.add(Eigen::VectorXd(Phi.row(j).transpose()), y[j]);
    }
    BlrPosterior fresh(M, lambda);
    fresh.add(Phi, y);
    const Eigen::MatrixXd cov = fresh.covariance();
    CHECK((updated.mean() - fresh.mean()).norm() < 1e-8 * fresh.mean().norm());
    CHECK((updated.covariance() - cov).norm() < 1e-8 * cov.norm());
    RngStream r1(4), r2(4);
    const Eigen::VectorXd a = updated.sample(r1), b = fresh.sample(r2);
    CHECK((a - b).norm() < 1e-7 * b.norm());
    CHECK(updated.fallback_count() == 0);
  }
}
