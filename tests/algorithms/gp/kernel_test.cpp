// The SE and Matern kernels with ARD length scales (algorithms/gp/kernel.hpp), their marginal
// likelihood and gradient (kernel_likelihood.hpp) and their fit, against closed forms computed
// by hand (python3's math module), a dense reference with an explicit inverse and determinant,
// central finite differences and the tiled SE code.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "algorithms/gp/hyper_fitter.hpp"
#include "algorithms/gp/kernel.hpp"
#include "algorithms/gp/kernel_likelihood.hpp"
#include "algorithms/gp/marginal_likelihood.hpp"
#include "core/rng.hpp"

using namespace fbosim;
using gp::KernelFamily;
using gp::KernelHyper;

namespace {
constexpr KernelFamily kFamilies[] = {KernelFamily::se, KernelFamily::matern32,
                                      KernelFamily::matern52};

// k(x, x') written out from R&W eqs. 4.9 and 4.17, independently of kernel.cpp.
double reference_k(KernelFamily f, const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                   const Eigen::VectorXd& l, double s2) {
  double r2 = 0;
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    const double lk = l.size() == 1 ? l[0] : l[k];
    r2 += (x[k] - y[k]) * (x[k] - y[k]) / (lk * lk);
  }
  const double r = std::sqrt(r2);
  if (f == KernelFamily::matern32)
    return s2 * (1 + std::sqrt(3.0) * r) * std::exp(-std::sqrt(3.0) * r);
  if (f == KernelFamily::matern52)
    return s2 * (1 + std::sqrt(5.0) * r + 5.0 * r2 / 3.0) * std::exp(-std::sqrt(5.0) * r);
  return s2 * std::exp(-r2 / 2);
}

// R&W eq. 5.8 with an explicit inverse and determinant of the reference kernel matrix.
double dense_lml(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const KernelHyper& h) {
  const Eigen::Index n = X.rows();
  Eigen::MatrixXd K(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      K(i, j) = reference_k(h.family, X.row(i).transpose(), X.row(j).transpose(), h.lengthscales,
                            h.signal_var) +
                (i == j ? h.noise_var : 0.0);
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(K);
  return -0.5 * y.dot(lu.inverse() * y) - 0.5 * std::log(lu.determinant()) -
         0.5 * static_cast<double>(n) * std::log(2 * std::numbers::pi);
}

KernelHyper from_log(KernelFamily f, const Eigen::VectorXd& t) {
  const Eigen::Index p = t.size() - 2;
  return {f, t.head(p).array().exp().matrix(), std::exp(t[p]), std::exp(t[p + 1])};
}
}  // namespace

TEST_CASE("Matern-3/2 and Matern-5/2 equal their closed forms at given distances") {
  // python3: a = sqrt(3) r; (1 + a) exp(-a); b = sqrt(5) r; (1 + b + b^2 / 3) exp(-b)
  struct Row {
    double r, m32, m52;
  };
  const Row rows[] = {{0.0, 1.0, 1.0},
                      {0.5, 0.7848876539574506, 0.8286491424181255},
                      {1.0, 0.4833577245965077, 0.5239941088318203},
                      {2.0, 0.13973135019231467, 0.13866021913850426}};
  for (const Row& row : rows) {
    CHECK(gp::kernel_profile(KernelFamily::matern32, row.r * row.r) ==
          Approx(row.m32).epsilon(1e-14));
    CHECK(gp::kernel_profile(KernelFamily::matern52, row.r * row.r) ==
          Approx(row.m52).epsilon(1e-14));
    // Through kernel_matrix, with the distance along one axis and l = 0.5.
    const Eigen::RowVector2d a(0.1, -0.3), b(0.1 + 0.5 * row.r, -0.3);
    const KernelHyper h32{KernelFamily::matern32, Eigen::VectorXd::Constant(1, 0.5), 2.0, 0.0};
    CHECK(gp::kernel_matrix(h32, a, b)(0, 0) == Approx(2.0 * row.m32).epsilon(1e-13));
  }
}

TEST_CASE("ARD kernels equal hand-computed values") {
  // x = (0.1, 0.2, 0.3), x' = (0.4, 0.0, 0.3), l = (0.5, 0.25, 2): r^2 = 0.6^2 + 0.8^2 + 0 = 1,
  // signal variance 1.5. python3: 1.5 exp(-0.5); 1.5 (1 + sqrt 3) exp(-sqrt 3);
  // 1.5 (1 + sqrt 5 + 5/3) exp(-sqrt 5).
  const Eigen::RowVector3d x(0.1, 0.2, 0.3), y(0.4, 0.0, 0.3);
  const Eigen::Vector3d l(0.5, 0.25, 2.0);
  CHECK(gp::kernel_matrix({KernelFamily::se, l, 1.5, 0}, x, y)(0, 0) ==
        Approx(0.9097959895689501).epsilon(1e-13));
  CHECK(gp::kernel_matrix({KernelFamily::matern32, l, 1.5, 0}, x, y)(0, 0) ==
        Approx(0.7250365868947616).epsilon(1e-13));
  CHECK(gp::kernel_matrix({KernelFamily::matern52, l, 1.5, 0}, x, y)(0, 0) ==
        Approx(0.7859911632477304).epsilon(1e-13));
  // Symmetric, s^2 on the diagonal.
  const Eigen::MatrixXd X = (Eigen::MatrixXd(2, 3) << x, y).finished();
  const Eigen::MatrixXd K = gp::kernel_matrix({KernelFamily::matern52, l, 1.5, 0}, X, X);
  CHECK(K(0, 1) == K(1, 0));
  CHECK(K(0, 0) == Approx(1.5).epsilon(1e-15));
  CHECK_THROWS_AS(gp::scale_inputs(X, Eigen::Vector2d(1, 1)), std::invalid_argument);
}

TEST_CASE("kernel log marginal likelihood equals the dense formula, isotropic and ARD") {
  core::RngStream rng(11);
  for (const KernelFamily f : kFamilies)
    for (const bool ard : {false, true})
      for (const Eigen::Index n : {1, 7, 30}) {
        const int d = 3;
        const Eigen::MatrixXd X = rng.uniform_matrix(n, d);
        const Eigen::VectorXd y = rng.normal_vector(n);
        Eigen::VectorXd l(ard ? d : 1);
        for (Eigen::Index k = 0; k < l.size(); ++k) l[k] = rng.uniform(0.1, 1.5);
        const KernelHyper h{f, l, rng.uniform(0.2, 2.0), rng.uniform(0.01, 0.5)};
        CHECK(gp::log_marginal_likelihood(X, y, h) == Approx(dense_lml(X, y, h)).epsilon(1e-9));
      }
}

TEST_CASE("isotropic SE through the kernel code equals the tiled SE code") {
  core::RngStream rng(12);
  const Eigen::MatrixXd X = rng.uniform_matrix(25, 2);
  const Eigen::VectorXd y = rng.normal_vector(25);
  const gp::SeHyper se{0.3, 1.4, 0.05};
  Eigen::Vector3d g_se;
  const double lml_se = gp::log_marginal_likelihood(X, y, se, &g_se);
  Eigen::VectorXd g;
  const double lml = gp::log_marginal_likelihood(
      X, y, {KernelFamily::se, Eigen::VectorXd::Constant(1, 0.3), 1.4, 0.05}, &g);
  CHECK(lml == Approx(lml_se).epsilon(1e-11));
  REQUIRE(g.size() == 3);
  for (int k = 0; k < 3; ++k) CHECK(g[k] == Approx(g_se[k]).epsilon(1e-9).margin(1e-9));
}

TEST_CASE("the kernel likelihood's gradient matches central finite differences in log space") {
  // Every length scale (one, or one per dimension), the signal and the noise variance.
  core::RngStream rng(13);
  for (const KernelFamily f : kFamilies)
    for (const bool ard : {false, true})
      for (const int d : {1, 3}) {
        const Eigen::Index n = 24;
        const Eigen::MatrixXd X = rng.uniform_matrix(n, d);
        const Eigen::VectorXd y = rng.normal_vector(n);
        const Eigen::Index p = ard ? d : 1;
        Eigen::VectorXd t(p + 2);
        for (Eigen::Index k = 0; k < p; ++k) t[k] = std::log(rng.uniform(0.1, 1.0));
        t[p] = std::log(rng.uniform(0.3, 3.0));
        t[p + 1] = std::log(rng.uniform(0.01, 0.3));
        Eigen::VectorXd g;
        gp::log_marginal_likelihood(X, y, from_log(f, t), &g);
        REQUIRE(g.size() == p + 2);
        for (Eigen::Index k = 0; k < p + 2; ++k) {
          const double e = 1e-5;
          Eigen::VectorXd hi = t, lo = t;
          hi[k] += e;
          lo[k] -= e;
          const double fd = (gp::log_marginal_likelihood(X, y, from_log(f, hi)) -
                             gp::log_marginal_likelihood(X, y, from_log(f, lo))) /
                            (2 * e);
          INFO(gp::to_string(f) << " ard " << ard << " d " << d << " parameter " << k);
          CHECK(g[k] == Approx(fd).epsilon(1e-5).margin(1e-5));
        }
      }
}

TEST_CASE("the kernel likelihood is -infinity when K is not positive definite") {
  core::RngStream rng(14);
  const Eigen::MatrixXd X = rng.uniform_matrix(6, 2);
  const Eigen::VectorXd y = rng.normal_vector(6);
  const double lml = gp::log_marginal_likelihood(
      X, y, {KernelFamily::matern52, Eigen::Vector2d(0.2, 0.3), 0.1, -1.0});
  CHECK(std::isinf(lml));
  CHECK(lml < 0);
}

TEST_CASE("the ARD fit finds the relevant dimension, for each family") {
  // y depends on x_1 only (a draw of a 1-D GP with l = 0.2 in x_1): the fitted length scale of
  // x_2 must come out far longer than that of x_1, and the fit must not lose to its start.
  core::RngStream data(15);
  const Eigen::Index n = 80;
  const Eigen::MatrixXd X = data.uniform_matrix(n, 2);
  Eigen::MatrixXd K = gp::kernel_matrix(
      {KernelFamily::se, Eigen::VectorXd::Constant(1, 0.2), 1.0, 0.0}, X.col(0), X.col(0));
  K.diagonal().array() += 0.01;
  const Eigen::VectorXd y = Eigen::LLT<Eigen::MatrixXd>(K).matrixL() * data.normal_vector(n);
  for (const KernelFamily f : kFamilies) {
    const KernelHyper start{f, Eigen::Vector2d(1.0, 1.0), 0.1, 1e-6};
    core::RngStream rng(16);
    gp::HyperFitter::Options o;
    o.restarts = 3;
    const KernelHyper fit = gp::HyperFitter(o).fit(X, y, start, rng);
    INFO(gp::to_string(f) << ": l = " << fit.lengthscales.transpose());
    REQUIRE(fit.lengthscales.size() == 2);
    CHECK(fit.family == f);
    CHECK(fit.lengthscales[0] < 0.6);
    CHECK(fit.lengthscales[1] > 4 * fit.lengthscales[0]);
    CHECK(gp::log_marginal_likelihood(X, y, fit) >= gp::log_marginal_likelihood(X, y, start));
    CHECK(fit.noise_var >= o.min_noise_var);
    CHECK(fit.noise_var <= o.max_noise_var);
  }
}

TEST_CASE("the kernel fit is reproducible from its stream and checks the length scales' size") {
  core::RngStream data(17);
  const Eigen::MatrixXd X = data.uniform_matrix(20, 3);
  const Eigen::VectorXd y = data.normal_vector(20);
  const KernelHyper start{KernelFamily::matern32, Eigen::Vector3d(0.5, 0.5, 0.5), 1.0, 0.1};
  core::RngStream a(3), b(3);
  gp::HyperFitter::Options o;
  o.restarts = 2;
  const KernelHyper fa = gp::HyperFitter(o).fit(X, y, start, a);
  const KernelHyper fb = gp::HyperFitter(o).fit(X, y, start, b);
  CHECK(fa.lengthscales == fb.lengthscales);
  CHECK(fa.signal_var == fb.signal_var);
  CHECK(fa.noise_var == fb.noise_var);
  KernelHyper bad = start;
  bad.lengthscales = Eigen::Vector2d(1, 1);
  CHECK_THROWS_AS(gp::HyperFitter(o).fit(X, y, bad, a), std::invalid_argument);
}
