#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <Eigen/Dense>

#include "algorithms/surrogate/exact_gp.hpp"
#include "kernel_by_hand.hpp"

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

// Issue 29: the exact GP with Matern-3/2, Matern-5/2 and ARD length scales.
namespace {
using fbosim::gp::KernelFamily;
using fbosim::gp::KernelHyper;

KernelHyper kernel_hyper(KernelFamily f, Eigen::VectorXd ls, double s2, double noise) {
  return {f, std::move(ls), s2, noise};
}
}  // namespace

TEST_CASE("ExactGp with Matern and ARD kernels matches a hand-written solve") {
  // Three points in 2-D, one query, s^2 = 1.3, noise 0.01, prior mean 0.2, no jitter. The
  // expected values are exact_gp_kernel_reference.py's (plain Python: the kernels written out,
  // a Gaussian elimination).
  Eigen::MatrixXd X(3, 2);
  X << 0.1, 0.2, 0.5, 0.9, 0.8, 0.3;
  const Eigen::Vector3d y(1.0, -0.5, 0.3);
  const Eigen::MatrixXd xq = (Eigen::MatrixXd(1, 2) << 0.4, 0.5).finished();
  ExactGp::Options o;
  o.prior_mean = 0.2;
  o.jitter = 0.0;
  const struct {
    KernelHyper h;
    double mean, var;
  } cases[] = {
      {kernel_hyper(KernelFamily::matern52, Eigen::Vector2d(0.4, 0.7), 1.3, 0.01),
       0.15049674244582195, 0.3392957496124892},
      {kernel_hyper(KernelFamily::matern32, Eigen::VectorXd::Constant(1, 0.5), 1.3, 0.01),
       0.2628618348724401, 0.509205033956549},
      {kernel_hyper(KernelFamily::se, Eigen::Vector2d(0.3, 0.9), 1.3, 0.01), -0.036280210918982425,
       0.21093461033608452},
  };
  for (const auto& c : cases) {
    INFO(fbosim::gp::to_string(c.h.family) << ", " << c.h.lengthscales.size() << " length scales");
    ExactGp gp(2, c.h, o);
    gp.fit(X, y);
    const Prediction p = gp.predict(xq);
    CHECK(p.mean[0] == Approx(c.mean).epsilon(1e-12));
    CHECK(p.variance[0] == Approx(c.var).epsilon(1e-12));
    const fbosim::surrogate::PointPrediction q =
        gp.predict_point(xq.row(0).transpose(), nullptr, nullptr);
    CHECK(q.mean == Approx(c.mean).epsilon(1e-12));
    CHECK(q.variance == Approx(c.var).epsilon(1e-12));
  }
}

TEST_CASE("ExactGp with Matern and ARD kernels equals the dense posterior, grown or fitted") {
  RngStream rng(23);
  ExactGp::Options o;
  o.prior_mean = -0.3;
  for (const KernelFamily f : {KernelFamily::matern32, KernelFamily::matern52, KernelFamily::se}) {
    for (const Eigen::VectorXd& ls : std::vector<Eigen::VectorXd>{
             Eigen::Vector3d(0.2, 0.6, 1.5), Eigen::VectorXd::Constant(1, 0.35)}) {
      if (f == KernelFamily::se && ls.size() == 1) continue;  // the SeHyper GP, tested above
      INFO(fbosim::gp::to_string(f) << ", " << ls.size() << " length scales");
      const KernelHyper h = kernel_hyper(f, ls, 0.8, 0.02);
      const int n = 40;
      const Eigen::MatrixXd X = rng.uniform_matrix(n, 3);
      const Eigen::VectorXd y = rng.normal_vector(n);
      const Eigen::MatrixXd Xq = rng.uniform_matrix(15, 3);
      ExactGp grown(3, h, o), fitted(3, h, o);
      for (int i = 0; i < n; ++i) grown.add(X.row(i).transpose(), y[i]);
      fitted.fit(X, y);
      const fbosim::testing::DensePosterior d =
          fbosim::testing::dense_posterior(h, X, y, Xq, grown.diagonal_noise(), -0.3);
      for (const ExactGp* gp : {&grown, &fitted}) {
        const Prediction p = gp->predict(Xq);
        const JointPrediction j = gp->predict_joint(Xq);
        CHECK((p.mean - d.mean).cwiseAbs().maxCoeff() < 1e-9);
        CHECK((p.variance - d.cov.diagonal()).cwiseAbs().maxCoeff() < 1e-9);
        CHECK((j.mean - d.mean).cwiseAbs().maxCoeff() < 1e-9);
        CHECK((j.covariance - d.cov).cwiseAbs().maxCoeff() < 1e-9);
      }
      CHECK(grown.kernel_hyper().family == f);
      CHECK(grown.kernel_hyper().lengthscales == ls);
      CHECK((grown.covariance(X, Xq) - fbosim::testing::kernel_by_hand(h, X, Xq))
                .cwiseAbs()
                .maxCoeff() < 1e-12);
    }
  }
}

TEST_CASE("ExactGp's point gradients with Matern and ARD kernels equal finite differences") {
  RngStream rng(24);
  const Eigen::MatrixXd X = rng.uniform_matrix(25, 2);
  const Eigen::VectorXd y = rng.normal_vector(25);
  for (const KernelFamily f : {KernelFamily::matern32, KernelFamily::matern52, KernelFamily::se}) {
    INFO(fbosim::gp::to_string(f));
    ExactGp gp(2, kernel_hyper(f, Eigen::Vector2d(0.25, 0.7), 1.1, 0.01));
    gp.fit(X, y);
    for (int t = 0; t < 5; ++t) {
      const Eigen::VectorXd x = rng.uniform_matrix(1, 2).row(0).transpose();
      Eigen::VectorXd gm, gv;
      gp.predict_point(x, &gm, &gv);
      for (int c = 0; c < 2; ++c) {
        const double e = 1e-6;
        Eigen::VectorXd up = x, down = x;
        up[c] += e;
        down[c] -= e;
        const auto pu = gp.predict_point(up, nullptr, nullptr);
        const auto pd = gp.predict_point(down, nullptr, nullptr);
        CHECK(gm[c] == Approx((pu.mean - pd.mean) / (2 * e)).epsilon(1e-5).margin(1e-6));
        CHECK(gv[c] == Approx((pu.variance - pd.variance) / (2 * e)).epsilon(1e-5).margin(1e-6));
      }
    }
  }
}

TEST_CASE("ExactGp refuses a kernel with a bad number or value of length scales") {
  const auto with = [](Eigen::VectorXd ls) {
    return kernel_hyper(KernelFamily::matern52, std::move(ls), 1.0, 0.1);
  };
  CHECK_THROWS_WITH(ExactGp(3, with(Eigen::Vector2d(0.2, 0.3))),
                    Catch::Contains("need 1 or 3 length scales, got 2"));
  CHECK_THROWS_WITH(ExactGp(2, with(Eigen::Vector2d(0.2, 0.0))),
                    Catch::Contains("every length scale"));
  CHECK_THROWS_WITH(ExactGp(2, with(Eigen::Vector2d(0.2, NAN))),
                    Catch::Contains("every length scale"));
  CHECK_THROWS_AS(ExactGp(2, with(Eigen::VectorXd(0))), std::invalid_argument);
  // set_hyper with a kernel: the same as a fresh GP with it; with an SeHyper: isotropic SE again.
  RngStream rng(25);
  const Eigen::MatrixXd X = rng.uniform_matrix(10, 2), Xq = rng.uniform_matrix(4, 2);
  const Eigen::VectorXd y = rng.normal_vector(10);
  ExactGp gp(2, SeHyper{0.3, 1.0, 0.1}), fresh(2, with(Eigen::Vector2d(0.2, 0.4)));
  gp.fit(X, y);
  fresh.fit(X, y);
  gp.set_hyper(with(Eigen::Vector2d(0.2, 0.4)));
  CHECK((gp.predict(Xq).mean - fresh.predict(Xq).mean).cwiseAbs().maxCoeff() < 1e-12);
  gp.set_hyper(SeHyper{0.3, 1.0, 0.1});
  CHECK(gp.kernel_hyper().family == KernelFamily::se);
  CHECK(gp.kernel_hyper().lengthscales.size() == 1);
}
