#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include "algorithms/rff/blr_posterior.hpp"
#include "algorithms/rff/random_features.hpp"
#include "algorithms/surrogate/rff_surrogate.hpp"

using fbosim::core::RngStream;
using fbosim::rff::BlrPosterior;
using fbosim::rff::RandomFeatures;
using fbosim::surrogate::JointPrediction;
using fbosim::surrogate::Prediction;
using fbosim::surrogate::RffSurrogate;

TEST_CASE("RffSurrogate equals the t-space GP formulas with k = phi^T phi (FTS App. B)") {
  RngStream rng(30);
  const double s2 = 0.02;
  for (auto [n, M] : {std::pair{15, 40}, std::pair{60, 20}}) {
    const RandomFeatures f = RandomFeatures::draw(2, M, 0.25, 1.4, rng);
    const Eigen::MatrixXd X = rng.uniform_matrix(n, 2);
    const Eigen::VectorXd y = rng.normal_vector(n);
    RffSurrogate s(f, s2);
    for (int i = 0; i < n; ++i) s.add(X.row(i).transpose(), y[i]);
    const Eigen::MatrixXd Xq = rng.uniform_matrix(12, 2);
    const Eigen::MatrixXd Phi = f.features(X), Phiq = f.features(Xq);
    // mu = k^T (K + s2 I)^-1 y, Cov = k** - k^T (K + s2 I)^-1 k with K = Phi Phi^T (LU solve).
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(Phi * Phi.transpose() +
                                               s2 * Eigen::MatrixXd::Identity(n, n));
    const Eigen::MatrixXd Ks = Phi * Phiq.transpose();
    const Eigen::VectorXd mean = Ks.transpose() * lu.solve(y);
    const Eigen::MatrixXd cov = Phiq * Phiq.transpose() - Ks.transpose() * lu.solve(Ks);
    const Prediction p = s.predict(Xq);
    const JointPrediction j = s.predict_joint(Xq);
    for (int q = 0; q < 12; ++q) {
      CHECK(p.mean[q] == Approx(mean[q]).epsilon(1e-8).margin(1e-10));
      CHECK(p.variance[q] == Approx(cov(q, q)).epsilon(1e-8).margin(1e-10));
    }
    CHECK((j.covariance - cov).cwiseAbs().maxCoeff() < 1e-9);
  }
}

TEST_CASE("RffSurrogate agrees with BlrPosterior (eq. 2) and its factor with a fresh Cholesky") {
  RngStream rng(31);
  const int M = 50, n = 80;
  const double s2 = 1e-3;
  const RandomFeatures f = RandomFeatures::draw(3, M, 0.3, 1.0, rng);
  const Eigen::MatrixXd X = rng.uniform_matrix(n, 3);
  const Eigen::VectorXd y = rng.normal_vector(n);
  RffSurrogate s(f, s2);
  for (int i = 0; i < n; ++i) s.add(X.row(i).transpose(), y[i]);
  BlrPosterior blr(M, s2);
  blr.add(f.features(X), y);
  const Eigen::VectorXd nu = blr.mean();
  const Eigen::MatrixXd cov = blr.covariance();
  CHECK((s.weight_mean() - nu).norm() <= 1e-8 * nu.norm());
  CHECK((s.weight_covariance() - cov).norm() <= 1e-8 * cov.norm());
  // Rank-one updates of sqrt(s2) I give the factor of Phi^T Phi + s2 I.
  const Eigen::MatrixXd Phi = f.features(X);
  const Eigen::MatrixXd Sigma = Phi.transpose() * Phi + s2 * Eigen::MatrixXd::Identity(M, M);
  const Eigen::MatrixXd L = Eigen::LLT<Eigen::MatrixXd>(Sigma).matrixL();
  CHECK((s.cholesky_factor() - L).cwiseAbs().maxCoeff() < 1e-10);
  // Same stream => the same omega as BlrPosterior::sample (the same z, the same recipe).
  RngStream a(5), b(5);
  const Eigen::VectorXd wa = s.sample_weights(a), wb = blr.sample(b);
  CHECK((wa - wb).norm() <= 1e-7 * wb.norm());
  // sample() on a finite set is Phi(Xq) omega with the same draws.
  const Eigen::MatrixXd Xq = rng.uniform_matrix(6, 3);
  RngStream c(5);
  const Eigen::MatrixXd F = s.sample(Xq, 1, c);
  CHECK((F.col(0) - f.features(Xq) * wa).cwiseAbs().maxCoeff() < 1e-12);
  CHECK(s.size() == n);
  CHECK(s.noise_var() == s2);
}

TEST_CASE("RffSurrogate rejects bad settings") {
  RngStream rng(32);
  const RandomFeatures f = RandomFeatures::draw(1, 10, 0.3, 1.0, rng);
  CHECK_THROWS_AS(RffSurrogate(f, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(RffSurrogate(f, NAN), std::invalid_argument);
  RffSurrogate s(f, 0.1);
  CHECK_THROWS_AS(s.sample(Eigen::MatrixXd(2, 1), -1, rng), std::invalid_argument);
}
