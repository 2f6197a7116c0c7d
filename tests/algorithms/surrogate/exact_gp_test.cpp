#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Dense>

#include "algorithms/surrogate/exact_gp.hpp"

using fbosim::core::RngStream;
using fbosim::gp::SeHyper;
using fbosim::surrogate::ExactGp;
using fbosim::surrogate::JointPrediction;
using fbosim::surrogate::Prediction;

namespace {
// The SE kernel written out entry by entry (independent of gp::se_kernel's vectorised form).
Eigen::MatrixXd kernel(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const SeHyper& h) {
  Eigen::MatrixXd K(A.rows(), B.rows());
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < B.rows(); ++j)
      K(i, j) = h.signal_var * std::exp(-(A.row(i) - B.row(j)).squaredNorm() /
                                        (2 * h.lengthscale * h.lengthscale));
  return K;
}
}  // namespace

TEST_CASE("ExactGp equals the textbook posterior (FTS eq. 1) solved densely") {
  RngStream rng(20);
  const SeHyper h{0.4, 1.7, 0.03};
  ExactGp::Options o;
  o.prior_mean = 0.6;
  o.jitter = 0.0;
  for (int n : {1, 7, 45}) {  // 45 > the initial capacity: the factor has grown
    const Eigen::MatrixXd X = rng.uniform_matrix(n, 3);
    const Eigen::VectorXd y = rng.normal_vector(n);
    const Eigen::MatrixXd Xq = rng.uniform_matrix(20, 3);
    ExactGp gp(3, h, o);
    for (int i = 0; i < n; ++i) gp.add(X.row(i).transpose(), y[i]);
    // mu = m0 + k^T (K + s2 I)^-1 (y - m0), Cov = K** - k^T (K + s2 I)^-1 k, with an LU solve.
    const Eigen::MatrixXd A = kernel(X, X, h) + h.noise_var * Eigen::MatrixXd::Identity(n, n);
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(A);
    const Eigen::MatrixXd Ks = kernel(X, Xq, h);
    const Eigen::VectorXd mean =
        (Ks.transpose() * lu.solve((y.array() - 0.6).matrix())).array() + 0.6;
    const Eigen::MatrixXd cov = kernel(Xq, Xq, h) - Ks.transpose() * lu.solve(Ks);
    const Prediction p = gp.predict(Xq);
    const JointPrediction j = gp.predict_joint(Xq);
    for (int q = 0; q < 20; ++q) {
      CHECK(p.mean[q] == Approx(mean[q]).epsilon(1e-10).margin(1e-12));
      CHECK(p.variance[q] == Approx(cov(q, q)).epsilon(1e-9).margin(1e-12));
      CHECK(j.mean[q] == Approx(mean[q]).epsilon(1e-10).margin(1e-12));
    }
    CHECK((j.covariance - cov).cwiseAbs().maxCoeff() < 1e-10);
  }
}

TEST_CASE("the incrementally grown factor equals a fresh Cholesky of K + s2 I") {
  RngStream rng(21);
  const SeHyper h{0.2, 1.0, 1e-4};
  ExactGp gp(2, h);  // default jitter: s2 = 1e-4 + 1e-10
  const int n = 70;
  const Eigen::MatrixXd X = rng.uniform_matrix(n, 2);
  const Eigen::VectorXd y = rng.normal_vector(n);
  for (int i = 0; i < n; ++i) gp.add(X.row(i).transpose(), y[i]);
  const double s2 = 1e-4 + 1e-10;
  CHECK(gp.diagonal_noise() == Approx(s2).epsilon(1e-15));
  const Eigen::MatrixXd A = kernel(X, X, h) + s2 * Eigen::MatrixXd::Identity(n, n);
  const Eigen::MatrixXd L = Eigen::LLT<Eigen::MatrixXd>(A).matrixL();
  const Eigen::MatrixXd G = gp.cholesky_factor();
  CHECK((G - L).cwiseAbs().maxCoeff() < 1e-9);
  CHECK((G * G.transpose() - A).cwiseAbs().maxCoeff() < 1e-12);
  CHECK(G.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().cwiseAbs().maxCoeff() == 0.0);
  ExactGp fitted(2, h);
  fitted.fit(X, y);
  CHECK((fitted.cholesky_factor() - L).cwiseAbs().maxCoeff() < 1e-9);
}

TEST_CASE("new hyperparameters or prior mean equal a fresh fit with them") {
  RngStream rng(22);
  const Eigen::MatrixXd X = rng.uniform_matrix(30, 2);
  const Eigen::VectorXd y = rng.normal_vector(30);
  const Eigen::MatrixXd Xq = rng.uniform_matrix(10, 2);
  const SeHyper old_h{0.5, 1.0, 0.1}, new_h{0.15, 2.5, 0.01};
  ExactGp gp(2, old_h);
  gp.fit(X, y);
  gp.set_hyper(new_h);
  gp.set_prior_mean(-0.4);
  ExactGp::Options o;
  o.prior_mean = -0.4;
  ExactGp fresh(2, new_h, o);
  fresh.fit(X, y);
  const Prediction a = gp.predict(Xq), b = fresh.predict(Xq);
  CHECK((a.mean - b.mean).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((a.variance - b.variance).cwiseAbs().maxCoeff() < 1e-12);
  CHECK(gp.hyper().lengthscale == 0.15);
  CHECK_THROWS_AS(gp.set_hyper(SeHyper{-1.0, 1.0, 0.1}), std::invalid_argument);
  CHECK(gp.hyper().lengthscale == 0.15);
}

TEST_CASE("variance is that of the latent f: a heavily repeated point approaches 0, not s2") {
  const SeHyper h{0.3, 1.0, 0.5};
  ExactGp gp(1, h);
  for (int i = 0; i < 400; ++i) gp.add(Eigen::VectorXd::Constant(1, 0.4), 1.0);
  const Prediction p = gp.predict(Eigen::MatrixXd::Constant(1, 1, 0.4));
  // Closed form for n copies of one point: var = s - n s^2 / (n s + s2).
  const double n = 400, s = 1.0, s2 = 0.5 + 1e-10;
  CHECK(p.variance[0] == Approx(s - n * s * s / (n * s + s2)).epsilon(1e-6));
  CHECK(p.mean[0] == Approx(n * s / (n * s + s2)).epsilon(1e-12));
}

TEST_CASE("a matrix that is not numerically positive definite is a clear error, state unchanged") {
  ExactGp::Options none;
  none.jitter = 0.0;
  CHECK_THROWS_AS(ExactGp(1, SeHyper{0.3, 1.0, 0.0}, none), std::invalid_argument);
  // Positive definite in exact arithmetic, singular in double precision: a repeated point.
  ExactGp gp(1, SeHyper{0.3, 1.0, 1e-300}, none);
  gp.add(Eigen::VectorXd::Constant(1, 0.5), 1.0);
  const Prediction before = gp.predict(Eigen::MatrixXd::Constant(1, 1, 0.2));
  CHECK_THROWS_AS(gp.add(Eigen::VectorXd::Constant(1, 0.5), 2.0), std::runtime_error);
  CHECK(gp.size() == 1);
  CHECK(gp.predict(Eigen::MatrixXd::Constant(1, 1, 0.2)).mean == before.mean);
  CHECK_THROWS_AS(gp.fit(Eigen::MatrixXd::Constant(2, 1, 0.5), Eigen::VectorXd::Ones(2)),
                  std::runtime_error);
  CHECK(gp.size() == 1);
  // The default jitter makes the same data usable with noise_var = 0.
  ExactGp safe(1, SeHyper{0.3, 1.0, 0.0});
  safe.fit(Eigen::MatrixXd::Constant(2, 1, 0.5), Eigen::Vector2d(1.0, 2.0));
  CHECK(safe.predict(Eigen::MatrixXd::Constant(1, 1, 0.5)).mean[0] == Approx(1.5).epsilon(1e-6));
  CHECK_THROWS_AS(ExactGp(0, SeHyper{}), std::invalid_argument);
  CHECK_THROWS_AS(ExactGp(1, SeHyper{0.3, 0.0, 0.1}), std::invalid_argument);
}
