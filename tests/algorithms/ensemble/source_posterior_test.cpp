#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include "algorithms/ensemble/feature_point.hpp"
#include "algorithms/ensemble/source_posterior.hpp"
#include "algorithms/surrogate/rff_surrogate.hpp"
#include "ensemble_fixture.hpp"

using ensemble_test::message_from_data;
using ensemble_test::source_from_data;
using fbosim::core::RngStream;
using fbosim::ensemble::FeaturePoint;
using fbosim::ensemble::SourcePosterior;
using fbosim::rff::RandomFeatures;
using fbosim::surrogate::Prediction;
using fbosim::surrogate::RffSurrogate;

TEST_CASE("SourcePosterior equals RffSurrogate and the t-space GP with k = phi^T phi") {
  RngStream rng(201);
  for (auto [n, M, lambda] :
       {std::tuple{15, 40, 0.02}, std::tuple{60, 30, 1e-3}, std::tuple{50, 100, 1e-6}}) {
    const RandomFeatures f = RandomFeatures::draw(2, M, 0.2, 1.0, rng);
    const Eigen::MatrixXd X = rng.uniform_matrix(n, 2);
    const Eigen::VectorXd y = ensemble_test::bumps(X, 0.3);
    const SourcePosterior s = source_from_data(f, X, y, lambda);
    RffSurrogate rs(f, lambda);
    rs.fit(X, y);
    const Eigen::MatrixXd Xq = rng.uniform_matrix(20, 2);
    const Eigen::MatrixXd Phiq = f.features(Xq);
    const Prediction p = s.predict(Phiq), r = rs.predict(Xq);
    // t-space (FTS App. B): mu = k^T (K + l I)^-1 y, var = k** - k^T (K + l I)^-1 k.
    const Eigen::MatrixXd Phi = f.features(X);
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(Phi * Phi.transpose() +
                                               lambda * Eigen::MatrixXd::Identity(n, n));
    const Eigen::MatrixXd Ks = Phi * Phiq.transpose();
    const Eigen::VectorXd mean_t = Ks.transpose() * lu.solve(y);
    const Eigen::VectorXd var_t =
        (Phiq * Phiq.transpose() - Ks.transpose() * lu.solve(Ks)).diagonal();
    // Sigma^-1 with lambda = 1e-6 has condition ~1e6 x n: looser tolerances there.
    const double tol = lambda < 1e-4 ? 1e-6 : 1e-9;
    for (int q = 0; q < 20; ++q) {
      CHECK(p.mean[q] == Approx(r.mean[q]).epsilon(tol).margin(tol));
      CHECK(p.variance[q] == Approx(r.variance[q]).epsilon(tol).margin(tol * lambda));
      CHECK(p.mean[q] == Approx(mean_t[q]).epsilon(tol).margin(tol));
      CHECK(p.variance[q] == Approx(var_t[q]).epsilon(1e3 * tol).margin(tol));
      // Per point equals batch.
      FeaturePoint fp(f);
      fp.evaluate(Xq.row(q).transpose(), false);
      SourcePosterior::Workspace ws;
      CHECK(s.mean(fp.phi()) == Approx(p.mean[q]).epsilon(1e-12).margin(1e-12));
      CHECK(s.variance(fp.phi(), ws) == Approx(p.variance[q]).epsilon(1e-10).margin(1e-18));
      // var(x) <= variance_bound() |phi(x)|^2, and the bound is 1 = k(x, x) here (t_n < M or
      // near it: lambda Sigma^-1 <= I, with equality on the null space of Phi).
      CHECK(p.variance[q] <= s.variance_bound() * Phiq.row(q).squaredNorm());
    }
    CHECK(s.variance_bound() <= 1.0 + 1e-6);
    if (n < M) CHECK(s.variance_bound() == Approx(1.0).epsilon(1e-6));
    CHECK(s.jitter() == 0.0);
  }
}

TEST_CASE("SourcePosterior gradients equal central differences") {
  RngStream rng(202);
  const int M = 50, d = 3;
  const RandomFeatures f = RandomFeatures::draw(d, M, 0.4, 1.0, rng);
  const Eigen::MatrixXd X = rng.uniform_matrix(30, d);
  const SourcePosterior s = source_from_data(f, X, ensemble_test::bumps(X, 0.0), 1e-2);
  FeaturePoint fp(f);
  SourcePosterior::Workspace ws;
  auto at = [&](const Eigen::VectorXd& x) {
    fp.evaluate(x, false);
    return std::pair{s.mean(fp.phi()), s.variance(fp.phi(), ws)};
  };
  for (int rep = 0; rep < 6; ++rep) {
    const Eigen::VectorXd x = rng.uniform_matrix(d, 1).col(0);
    fp.evaluate(x, true);
    Eigen::VectorXd gm, gv;
    const auto p = s.predict_point(fp, &gm, &gv, ws);
    CHECK(p.mean == Approx(at(x).first).epsilon(1e-14));
    const double h = 1e-6;
    for (int k = 0; k < d; ++k) {
      Eigen::VectorXd up = x, down = x;
      up[k] += h;
      down[k] -= h;
      const auto a = at(up), b = at(down);
      CHECK(gm[k] == Approx((a.first - b.first) / (2 * h)).epsilon(1e-5).margin(1e-7));
      CHECK(gv[k] == Approx((a.second - b.second) / (2 * h)).epsilon(1e-5).margin(1e-7));
    }
  }
}

TEST_CASE("SourcePosterior joint samples: Phi omega with omega ~ N(nu, lambda Sigma^-1)") {
  RngStream rng(203);
  const int M = 20, m = 5, S = 40000;
  const RandomFeatures f = RandomFeatures::draw(1, M, 0.3, 1.0, rng);
  const Eigen::MatrixXd X = rng.uniform_matrix(8, 1);
  const double lambda = 0.05;
  const SourcePosterior s = source_from_data(f, X, ensemble_test::bumps(X, 0.0), lambda);
  const Eigen::MatrixXd Phiq = f.features(rng.uniform_matrix(m, 1));
  RngStream draw(204);
  const Eigen::MatrixXd F = s.sample(Phiq, S, draw);  // m x S
  // Expected: mean Phi nu and covariance lambda Phi Sigma^-1 Phi^T (written out here).
  const Eigen::VectorXd mean = Phiq * s.nu();
  const Eigen::MatrixXd cov = lambda * Phiq * s.sigma_inverse() * Phiq.transpose();
  const Eigen::VectorXd emp_mean = F.rowwise().mean();
  const Eigen::MatrixXd C = F.colwise() - emp_mean;
  const Eigen::MatrixXd emp_cov = C * C.transpose() / (S - 1);
  for (int i = 0; i < m; ++i) {
    // 5 standard errors of the mean.
    CHECK(std::abs(emp_mean[i] - mean[i]) < 5 * std::sqrt(cov(i, i) / S));
    for (int j = 0; j < m; ++j)  // se of a covariance ~ sqrt((c_ii c_jj + c_ij^2) / S)
      CHECK(std::abs(emp_cov(i, j) - cov(i, j)) <
            5 * std::sqrt((cov(i, i) * cov(j, j) + cov(i, j) * cov(i, j)) / S));
  }
  // The first draws do not depend on the count.
  RngStream again(204);
  CHECK((s.sample(Phiq, 3, again) - F.leftCols(3)).cwiseAbs().maxCoeff() == 0.0);
}

TEST_CASE("SourcePosterior::linear_combination is the posterior of sum a_m g_m") {
  RngStream rng(205);
  const int M = 40;
  const RandomFeatures f = RandomFeatures::draw(2, M, 0.3, 1.0, rng);
  std::vector<SourcePosterior> parts;
  for (int m = 0; m < 3; ++m) {
    const Eigen::MatrixXd X = rng.uniform_matrix(20 + 5 * m, 2);
    parts.push_back(source_from_data(f, X, ensemble_test::bumps(X, m), 0.01 * (m + 1)));
  }
  const std::vector<double> a{0.2, 0.0, 0.7};
  const SourcePosterior c =
      SourcePosterior::linear_combination({&parts[0], &parts[1], &parts[2]}, a);
  const Eigen::MatrixXd Phiq = f.features(rng.uniform_matrix(15, 2));
  const Prediction p = c.predict(Phiq);
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(15), var = Eigen::VectorXd::Zero(15);
  for (int m = 0; m < 3; ++m) {
    const Prediction q = parts[m].predict(Phiq);
    mean += a[m] * q.mean;
    var += a[m] * a[m] * q.variance;
  }
  CHECK((p.mean - mean).cwiseAbs().maxCoeff() < 1e-10);
  CHECK((p.variance - var).cwiseAbs().maxCoeff() < 1e-10 * var.maxCoeff());
  CHECK(c.noise_var() == 1.0);
  CHECK_FALSE(c.incumbent().has_value());
}

TEST_CASE("SourcePosterior validates its message and falls back to jitter only for rounding") {
  const Eigen::VectorXd nu = Eigen::VectorXd::Ones(3);
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(3, 3);
  CHECK_THROWS_AS(SourcePosterior(nu, Eigen::MatrixXd::Identity(2, 2), 1.0), std::invalid_argument);
  CHECK_THROWS_AS(SourcePosterior(nu, I, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(SourcePosterior(nu, I, 1.0, std::nan("")), std::invalid_argument);
  Eigen::MatrixXd asym = I;
  asym(0, 1) = 0.1;
  CHECK_THROWS_WITH(SourcePosterior(nu, asym, 1.0), Catch::Contains("not symmetric"));
  Eigen::MatrixXd indefinite = I;
  indefinite(2, 2) = -1.0;
  CHECK_THROWS_WITH(SourcePosterior(nu, indefinite, 1.0), Catch::Contains("not positive definite"));
  // Rank-deficient by rounding (a Gram matrix of rank 2 in 3-space): factorised with a tiny
  // jitter, which the variance bound includes.
  Eigen::MatrixXd B(3, 2);
  B << 1, 2, 3, 4, 5, 6;
  Eigen::MatrixXd G = B * B.transpose();
  G(2, 2) -= 1e-13;
  const SourcePosterior s(nu, G, 1.0);
  CHECK(s.jitter() > 0.0);
  CHECK(s.jitter() <= 1e-6 * G.diagonal().mean());
  CHECK((s.factor() * s.factor().transpose() - s.sigma_inverse()).cwiseAbs().maxCoeff() < 1e-9);
}
