#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "algorithms/gp/hyper_fitter.hpp"
#include "algorithms/gp/marginal_likelihood.hpp"

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
         0.5 * n * std::log(2 * std::numbers::pi);
}

// A draw from GP(0, SE(h)) + noise at X, by Cholesky.
Eigen::VectorXd gp_sample(const Eigen::MatrixXd& X, const SeHyper& h, core::RngStream& rng) {
  Eigen::MatrixXd K = gp::se_kernel(X, X, h.lengthscale, h.signal_var);
  K.diagonal().array() += h.noise_var;
  return Eigen::LLT<Eigen::MatrixXd>(K).matrixL() * rng.normal_vector(X.rows());
}
}  // namespace

TEST_CASE("SE kernel against hand-computed values") {
  Eigen::MatrixXd A(2, 2), B(3, 2);
  A << 0, 0, 1, 0;
  B << 0, 0, 0, 1, 1, 1;
  const Eigen::MatrixXd K = gp::se_kernel(A, B, 0.5, 2.0);
  CHECK(K(0, 0) == Approx(2.0));
  CHECK(K(0, 1) == Approx(2.0 * std::exp(-1.0 / (2 * 0.25))));
  CHECK(K(0, 2) == Approx(2.0 * std::exp(-2.0 / (2 * 0.25))));
  CHECK(K(1, 0) == Approx(2.0 * std::exp(-2.0)));
  const Eigen::MatrixXd S = gp::se_kernel(B, B, 0.3, 1.5);
  CHECK(S.isApprox(S.transpose()));
  CHECK(S.diagonal().isApprox(Eigen::VectorXd::Constant(3, 1.5)));
}

TEST_CASE("log marginal likelihood equals the dense formula") {
  core::RngStream rng(1);
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::MatrixXd X = rng.uniform_matrix(15, 2);
    const Eigen::VectorXd y = rng.normal_vector(15);
    const SeHyper h{rng.uniform(0.1, 1.0), rng.uniform(0.2, 2.0), rng.uniform(0.01, 0.5)};
    CHECK(gp::log_marginal_likelihood(X, y, h) == Approx(dense_lml(X, y, h)).epsilon(1e-9));
  }
}

TEST_CASE("the gradient matches central finite differences in log space") {
  core::RngStream rng(2);
  for (int trial = 0; trial < 6; ++trial) {
    const Eigen::MatrixXd X = rng.uniform_matrix(20, trial % 2 + 1);
    const Eigen::VectorXd y = rng.normal_vector(20);
    const Eigen::Vector3d t(std::log(rng.uniform(0.05, 1.0)), std::log(rng.uniform(0.1, 3.0)),
                            std::log(rng.uniform(0.01, 0.3)));
    auto lml = [&](const Eigen::Vector3d& u) {
      return gp::log_marginal_likelihood(X, y, {std::exp(u[0]), std::exp(u[1]), std::exp(u[2])});
    };
    Eigen::Vector3d g;
    gp::log_marginal_likelihood(X, y, {std::exp(t[0]), std::exp(t[1]), std::exp(t[2])}, &g);
    for (int k = 0; k < 3; ++k) {
      const double e = 1e-5;
      Eigen::Vector3d p = t, m = t;
      p[k] += e;
      m[k] -= e;
      const double fd = (lml(p) - lml(m)) / (2 * e);
      CHECK(g[k] == Approx(fd).epsilon(1e-5).margin(1e-6));
    }
  }
}

TEST_CASE("the fitter recovers known hyperparameters and never loses to its start") {
  core::RngStream data(3);
  const SeHyper truth{0.2, 1.0, 0.01};
  const Eigen::MatrixXd X = data.uniform_matrix(100, 1);
  const Eigen::VectorXd y = gp_sample(X, truth, data);
  const SeHyper start{1.0, 0.1, 1e-6};  // the authors' code's start
  core::RngStream rng(4);
  const SeHyper fit = gp::HyperFitter().fit(X, y, start, rng);
  CHECK(fit.lengthscale == Approx(0.2).epsilon(0.3));
  CHECK(fit.noise_var == Approx(0.01).epsilon(0.6));
  const double best = gp::log_marginal_likelihood(X, y, fit);
  CHECK(best >= gp::log_marginal_likelihood(X, y, start));
  CHECK(best >= gp::log_marginal_likelihood(X, y, truth) - 1e-6);
  core::RngStream again(4);
  const SeHyper fit2 = gp::HyperFitter().fit(X, y, start, again);
  CHECK(fit2.lengthscale == fit.lengthscale);
  CHECK(fit2.noise_var == fit.noise_var);
}

TEST_CASE("degenerate data (duplicates, tiny noise) gives finite hyperparameters") {
  Eigen::MatrixXd X(6, 1);
  X << 0.1, 0.1, 0.1, 0.5, 0.5, 0.9;
  Eigen::VectorXd y(6);
  y << 1, 1.1, 0.9, 0, 0.1, 2;
  core::RngStream rng(5);
  const SeHyper fit = gp::HyperFitter().fit(X, y, {1.0, 0.1, 1e-6}, rng);
  CHECK(std::isfinite(fit.lengthscale));
  CHECK(std::isfinite(fit.signal_var));
  CHECK(fit.noise_var >= 1e-6);
  CHECK(std::isfinite(gp::log_marginal_likelihood(X, y, fit)));
}
