#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numbers>

#include <Eigen/LU>

#include "algorithms/gp/marginal_likelihood.hpp"
#include "core/rng.hpp"

using namespace fbosim;
using gp::SeHyper;

namespace {
// Dense reference for R&W eq. 5.8 with an explicit inverse and determinant.
double dense_lml(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const SeHyper& h) {
  const Eigen::Index n = X.rows();
  Eigen::MatrixXd K(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      K(i, j) = h.signal_var * std::exp(-(X.row(i) - X.row(j)).squaredNorm() /
                                        (2 * h.lengthscale * h.lengthscale)) +
                (i == j ? h.noise_var : 0.0);
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(K);
  return -0.5 * y.dot(lu.inverse() * y) - 0.5 * std::log(lu.determinant()) -
         0.5 * static_cast<double>(n) * std::log(2 * std::numbers::pi);
}

// R&W eq. 5.9 with dense matrices and an explicit inverse: 1/2 tr((alpha alpha^T - K^-1) dK).
Eigen::Vector3d dense_gradient(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                               const SeHyper& h) {
  const Eigen::Index n = X.rows();
  const Eigen::MatrixXd D = gp::squared_distances(X, X);
  const Eigen::MatrixXd Kf =
      h.signal_var * (-D / (2 * h.lengthscale * h.lengthscale)).array().exp().matrix();
  const Eigen::MatrixXd K = Kf + h.noise_var * Eigen::MatrixXd::Identity(n, n);
  const Eigen::MatrixXd Kinv = Eigen::FullPivLU<Eigen::MatrixXd>(K).inverse();
  const Eigen::VectorXd alpha = Kinv * y;
  const Eigen::MatrixXd W = alpha * alpha.transpose() - Kinv;
  return {0.5 * (W.array() * Kf.array() * D.array()).sum() / (h.lengthscale * h.lengthscale),
          0.5 * (W.array() * Kf.array()).sum(), 0.5 * h.noise_var * W.trace()};
}

SeHyper from_log(const Eigen::Vector3d& t) {
  return {std::exp(t[0]), std::exp(t[1]), std::exp(t[2])};
}
}  // namespace

TEST_CASE("log marginal likelihood equals the dense formula") {
  core::RngStream rng(1);
  for (int trial = 0; trial < 6; ++trial) {
    const Eigen::Index n = 5 + 12 * trial;  // 5 .. 65: small and blocked code paths
    const Eigen::MatrixXd X = rng.uniform_matrix(n, trial % 3 + 1);
    const Eigen::VectorXd y = rng.normal_vector(n);
    const SeHyper h{rng.uniform(0.1, 1.0), rng.uniform(0.2, 2.0), rng.uniform(0.01, 0.5)};
    CHECK(gp::log_marginal_likelihood(X, y, h) == Approx(dense_lml(X, y, h)).epsilon(1e-9));
  }
}

TEST_CASE("the gradient matches central finite differences in log space") {
  core::RngStream rng(2);
  for (int trial = 0; trial < 8; ++trial) {
    const Eigen::Index n = 10 + 8 * trial;
    const Eigen::MatrixXd X = rng.uniform_matrix(n, trial % 3 + 1);
    const Eigen::VectorXd y = rng.normal_vector(n);
    const Eigen::Vector3d t(std::log(rng.uniform(0.05, 1.0)), std::log(rng.uniform(0.1, 3.0)),
                            std::log(rng.uniform(0.01, 0.3)));
    Eigen::Vector3d g;
    gp::log_marginal_likelihood(X, y, from_log(t), &g);
    for (int k = 0; k < 3; ++k) {
      const double e = 1e-5;
      Eigen::Vector3d p = t, m = t;
      p[k] += e;
      m[k] -= e;
      const double fd = (gp::log_marginal_likelihood(X, y, from_log(p)) -
                         gp::log_marginal_likelihood(X, y, from_log(m))) /
                        (2 * e);
      CHECK(g[k] == Approx(fd).epsilon(1e-5).margin(1e-5));
    }
  }
}

TEST_CASE("the gradient equals R&W eq. 5.9 with an explicit inverse") {
  // 1/2 tr((alpha alpha^T - K^-1) dK/dtheta) with dense matrices, for sizes around the
  // four-column blocks of the factorisation and the SIMD widths.
  core::RngStream rng(3);
  for (const Eigen::Index n : {1, 2, 3, 4, 5, 8, 13, 31, 70}) {
    const Eigen::MatrixXd X = rng.uniform_matrix(n, 2);
    const Eigen::VectorXd y = rng.normal_vector(n);
    const SeHyper h{rng.uniform(0.1, 1.0), rng.uniform(0.2, 2.0), rng.uniform(0.01, 0.5)};
    const Eigen::Vector3d expected = dense_gradient(X, y, h);
    Eigen::Vector3d g;
    gp::log_marginal_likelihood(X, y, h, &g);
    for (int k = 0; k < 3; ++k)
      CHECK(g[k] == Approx(expected[k]).epsilon(1e-9).margin(1e-9 * expected.norm()));
  }
}

TEST_CASE("a reused workspace gives the same value and gradient as a fresh one") {
  core::RngStream rng(6);
  gp::LmlWorkspace ws;
  for (const Eigen::Index n : {40, 7, 25}) {  // shrinking and growing sizes
    const Eigen::MatrixXd X = rng.uniform_matrix(n, 2);
    const Eigen::VectorXd y = rng.normal_vector(n);
    const Eigen::MatrixXd D = gp::squared_distances(X, X);
    const SeHyper h{0.3, 0.8, 0.05};
    Eigen::Vector3d g_fresh, g_reused;
    const double fresh = gp::log_marginal_likelihood(X, y, h, &g_fresh);
    CHECK(gp::log_marginal_likelihood_sq(D, y, h, &g_reused, ws) == fresh);
    CHECK(g_reused == g_fresh);
  }
}

TEST_CASE("a kernel matrix that is not positive definite gives -infinity") {
  core::RngStream rng(7);
  const Eigen::MatrixXd X = rng.uniform_matrix(6, 1);
  const Eigen::VectorXd y = rng.normal_vector(6);
  Eigen::Vector3d g(1, 2, 3);
  const double lml = gp::log_marginal_likelihood(X, y, {0.2, 0.1, -1.0}, &g);
  CHECK(std::isinf(lml));
  CHECK(lml < 0);
}

TEST_CASE("value and gradient match the dense formulas for every padding and tile remainder") {
  // n is padded to a multiple of 4 and worked in tiles of 12, 8 and 4 rows: sizes 1 .. 9 cover
  // the paddings, 12 .. 28 and 64 .. 67 the tile remainders, each with 1-D and 2-D inputs.
  core::RngStream rng(8);
  for (const Eigen::Index n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 20, 24, 28, 64, 65, 66, 67}) {
    for (const int d : {1, 2}) {
      const Eigen::MatrixXd X = rng.uniform_matrix(n, d);
      const Eigen::VectorXd y = rng.normal_vector(n);
      const SeHyper h{rng.uniform(0.1, 1.0), rng.uniform(0.2, 2.0), rng.uniform(0.01, 0.5)};
      const Eigen::Vector3d expected = dense_gradient(X, y, h);
      Eigen::Vector3d g;
      CHECK(gp::log_marginal_likelihood(X, y, h, &g) == Approx(dense_lml(X, y, h)).epsilon(1e-9));
      for (int k = 0; k < 3; ++k)
        CHECK(g[k] == Approx(expected[k]).epsilon(1e-9).margin(1e-9 * expected.norm()));
    }
  }
}

TEST_CASE("a failed factorisation in a later panel gives -infinity and spoils no workspace") {
  core::RngStream rng(9);
  const Eigen::Index n = 20;
  // Spread points, short lengthscale: the pivots stay near 1 - 1e-3 until the repeated point,
  // whose pivot is about 2 noise_var < 0 (row 13, the fourth panel).
  Eigen::MatrixXd X = Eigen::VectorXd::LinSpaced(n, 0.0, 1.0);
  X(13, 0) = X(2, 0);
  const Eigen::VectorXd y = rng.normal_vector(n);
  const Eigen::MatrixXd D = gp::squared_distances(X, X);
  gp::LmlWorkspace ws;
  Eigen::Vector3d g;
  const double lml = gp::log_marginal_likelihood_sq(D, y, {0.05, 1.0, -1e-3}, &g, ws);
  CHECK(std::isinf(lml));
  CHECK(lml < 0);
  Eigen::MatrixXd D_nan = D;
  D_nan(17, 11) = D_nan(11, 17) = std::nan("");
  CHECK(gp::log_marginal_likelihood_sq(D_nan, y, {0.05, 1.0, 0.01}, &g, ws) ==
        -std::numeric_limits<double>::infinity());
  const SeHyper h{0.05, 1.0, 0.01};
  Eigen::Vector3d g_fresh;
  const double fresh = gp::log_marginal_likelihood(X, y, h, &g_fresh);
  CHECK(gp::log_marginal_likelihood_sq(D, y, h, &g, ws) == fresh);
  CHECK(g == g_fresh);
}
