#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <numbers>

#include <Eigen/Dense>

#include "../rff/check_draw_moments.hpp"
#include "algorithms/gp/se_kernel.hpp"
#include "algorithms/surrogate/circulant_grid_gp.hpp"
#include "kernel_by_hand.hpp"

using fbosim::core::RngStream;
using fbosim::gp::SeHyper;
using fbosim::surrogate::CirculantGridGp;

namespace {
Eigen::MatrixXd grid(Eigen::Index G, double h) {
  return Eigen::VectorXd::LinSpaced(G, 0.0, h * static_cast<double>(G - 1));
}

// The covariance entry C_ij = (1/L) sum_k mu_k cos(2 pi (i - j) k / L) over the whole (mirrored)
// spectrum, summed directly.
double circulant_entry(const CirculantGridGp& gp, Eigen::Index i, Eigen::Index j) {
  const Eigen::Index L = gp.embedding_size();
  double s = 0;
  for (Eigen::Index k = 0; k < L; ++k) {
    const double mu = gp.eigenvalues()[k <= L / 2 ? k : L - k];
    s += mu * std::cos(2 * std::numbers::pi * double((i - j) * k % L) / double(L));
  }
  return s / double(L);
}

// The largest |C_ij - K_ij| over the grid: the embedded covariance against the kernel K on it.
double embedding_error(const CirculantGridGp& gp, const Eigen::MatrixXd& K) {
  double worst = 0;
  for (Eigen::Index i = 0; i < K.rows(); ++i)
    for (Eigen::Index j = 0; j < K.cols(); ++j)
      worst = std::max(worst, std::abs(circulant_entry(gp, i, j) - K(i, j)));
  return worst;
}

// The posterior mean and covariance on the grid, from the dense formulas.
struct Dense {
  Eigen::VectorXd mean;
  Eigen::MatrixXd cov;
};
Dense dense_posterior(const Eigen::MatrixXd& Xg, const std::vector<Eigen::Index>& idx,
                      const Eigen::VectorXd& y, const SeHyper& h) {
  Eigen::MatrixXd X(idx.size(), 1);
  for (std::size_t i = 0; i < idx.size(); ++i) X(i, 0) = Xg(idx[i], 0);
  const Eigen::MatrixXd Kgg = fbosim::gp::se_kernel(Xg, Xg, h.lengthscale, h.signal_var);
  const Eigen::MatrixXd Kgx = fbosim::gp::se_kernel(Xg, X, h.lengthscale, h.signal_var);
  Eigen::MatrixXd Kxx = fbosim::gp::se_kernel(X, X, h.lengthscale, h.signal_var);
  Kxx.diagonal().array() += h.noise_var;
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(Kxx);
  return {Kgx * ldlt.solve(y), Kgg - Kgx * ldlt.solve(Kgx.transpose())};
}
}  // namespace

TEST_CASE("CirculantGridGp: the embedded covariance is the SE kernel on the grid") {
  // Short length scale (an embedding shorter than 2(G - 1) suffices) and a long one (the
  // embedding has to grow until its eigenvalues are >= 0).
  for (const auto& [G, h, l] : {std::tuple{60, 1.0 / 59, 0.03}, std::tuple{100, 0.01, 0.3}}) {
    const SeHyper hyper{l, 1.7, 0.01};
    const CirculantGridGp gp(G, h, hyper);
    const Eigen::MatrixXd K = fbosim::gp::se_kernel(grid(G, h), grid(G, h), l, 1.7);
    if (l == 0.3)
      CHECK(gp.embedding_size() > 2 * (G - 1));  // grown until mu >= 0
    else
      CHECK(gp.embedding_size() < 2 * (G - 1));  // the kernel decays within the grid
    for (double mu : gp.eigenvalues()) CHECK(mu >= 0);
    CHECK(embedding_error(gp, K) < 1e-10);
  }
}

TEST_CASE("CirculantGridGp: samples have the exact posterior's mean and covariance") {
  const Eigen::Index G = 12;
  const double h = 0.1;
  const SeHyper hyper{0.25, 1.3, 0.05};
  const std::vector<Eigen::Index> idx{2, 3, 7, 11, 7};  // a repeated point too
  const Eigen::VectorXd y = (Eigen::VectorXd(5) << 0.4, -0.2, 1.1, 0.3, 0.9).finished();
  CirculantGridGp gp(G, h, hyper);
  RngStream rng(11);
  SECTION("prior") {
    const Eigen::MatrixXd K = fbosim::gp::se_kernel(grid(G, h), grid(G, h), 0.25, 1.3);
    fbosim::testing::check_draw_moments([&] { return gp.sample(rng); }, Eigen::VectorXd::Zero(G), K,
                                        20000);
  }
  SECTION("posterior") {
    for (std::size_t i = 0; i < idx.size(); ++i) gp.add(idx[i], y[i]);
    CHECK(gp.observations() == 5);
    const Dense d = dense_posterior(grid(G, h), idx, y, hyper);
    fbosim::testing::check_draw_moments([&] { return gp.sample(rng); }, d.mean, d.cov, 20000);
  }
}

TEST_CASE("CirculantGridGp: a sample is Matheron's rule on its own normals, draw for draw") {
  // Replays the normals: the spectrum's L (prior), then one per observation (noise), and
  // recomputes the sample with dense matrices and the DFT summed directly.
  const Eigen::Index G = 40;
  const double h = 0.025;
  const SeHyper hyper{0.05, 0.8, 0.02};
  CirculantGridGp gp(G, h, hyper);
  const std::vector<Eigen::Index> idx{0, 5, 6, 20, 39, 33};
  Eigen::VectorXd y(6);
  y << 0.3, -0.1, 0.2, 0.9, -0.5, 0.0;
  for (std::size_t i = 0; i < idx.size(); ++i) gp.add(idx[i], y[i]);
  RngStream a(3), b(3);
  const Eigen::VectorXd f = gp.sample(a);
  const Eigen::Index L = gp.embedding_size();
  std::vector<std::complex<double>> spec(L);
  spec[0] = std::sqrt(double(L)) * b.normal();
  for (Eigen::Index k = 1; k < L / 2; ++k) {
    const double re = b.normal();
    const double im = b.normal();
    spec[k] = std::sqrt(L / 2.0) * std::complex<double>(re, im);
    spec[L - k] = std::conj(spec[k]);
  }
  spec[L / 2] = std::sqrt(double(L)) * b.normal();
  Eigen::VectorXd prior(G);
  for (Eigen::Index j = 0; j < G; ++j) {
    std::complex<double> s = 0;
    for (Eigen::Index k = 0; k < L; ++k)
      s += std::sqrt(gp.eigenvalues()[k <= L / 2 ? k : L - k]) * spec[k] *
           std::polar(1.0, 2 * std::numbers::pi * double(j * k % L) / double(L));
    prior[j] = s.real() / double(L);
  }
  Eigen::VectorXd r(6);
  for (int i = 0; i < 6; ++i) r[i] = y[i] - prior[idx[i]] - std::sqrt(0.02) * b.normal();
  Eigen::MatrixXd X(6, 1);
  for (int i = 0; i < 6; ++i) X(i, 0) = h * double(idx[i]);
  Eigen::MatrixXd Kxx = fbosim::gp::se_kernel(X, X, 0.05, 0.8);
  Kxx.diagonal().array() += 0.02;
  const Eigen::VectorXd expected =
      prior + fbosim::gp::se_kernel(grid(G, h), X, 0.05, 0.8) * Kxx.ldlt().solve(r);
  CHECK((f - expected).cwiseAbs().maxCoeff() < 1e-9);
  CHECK(a.normal() == b.normal());  // both consumed L + n normals
}

TEST_CASE("CirculantGridGp: bad arguments and kernels no embedding holds are rejected") {
  CHECK_THROWS_AS(CirculantGridGp(1, 0.1, {0.1, 1, 0.01}), std::invalid_argument);
  CHECK_THROWS_AS(CirculantGridGp(10, 0.0, {0.1, 1, 0.01}), std::invalid_argument);
  CHECK_THROWS_AS(CirculantGridGp(10, 0.1, {0.0, 1, 0.01}), std::invalid_argument);
  CHECK_THROWS_AS(CirculantGridGp(10, 0.1, {0.1, 1, 0.0}), std::invalid_argument);
  CirculantGridGp gp(10, 0.1, {0.1, 1, 0.01});
  CHECK_THROWS_AS(gp.add(10, 0.0), std::invalid_argument);
  CHECK_THROWS_AS(gp.add(0, std::nan("")), std::invalid_argument);
  // A length scale of 10^5 grid steps: the kernel has not decayed at the wrap-around of any
  // embedding up to 2^20 points.
  CHECK_THROWS_AS(CirculantGridGp(100, 1.0, {1e5, 1, 0.01}), std::runtime_error);
  // A flat kernel in double precision (10^9 steps) is a valid rank-one embedding.
  CHECK(CirculantGridGp(3, 1.0, {1e9, 1, 0.01}).embedding_size() == 4);
}

// Issue 29: the embedding holds for any stationary kernel on a regular grid (Dietrich & Newsam
// 1997); the Matern kernels' polynomially decaying spectra may need a larger embedding.
namespace {
using fbosim::gp::KernelFamily;
using fbosim::gp::KernelHyper;
KernelHyper as_kernel(KernelFamily f, const SeHyper& h) {
  return {f, Eigen::VectorXd::Constant(1, h.lengthscale), h.signal_var, h.noise_var};
}
}  // namespace

TEST_CASE("CirculantGridGp: the embedded covariance is the Matern kernel on the grid") {
  for (const KernelFamily f : {KernelFamily::matern32, KernelFamily::matern52}) {
    for (const auto& [G, h, l] :
         {std::tuple{60, 1.0 / 59, 0.03}, std::tuple{100, 0.01, 0.3}, std::tuple{50, 0.02, 2.0}}) {
      INFO(fbosim::gp::to_string(f) << ", G " << G << ", l " << l);
      const SeHyper hyper{l, 1.7, 0.01};
      const CirculantGridGp gp(G, h, hyper, f);
      CHECK(gp.family() == f);
      const Eigen::MatrixXd K =
          fbosim::testing::kernel_by_hand(as_kernel(f, hyper), grid(G, h), grid(G, h));
      for (double mu : gp.eigenvalues()) CHECK(mu >= 0);
      CHECK(embedding_error(gp, K) < 1e-10);
    }
  }
  // The Matern reach (k < 1e-17 s^2 beyond it) is longer than SE's: r = 24.79 and 20.47.
  CHECK(fbosim::gp::kernel_profile(KernelFamily::matern32, 24.79 * 24.79) < 1e-17);
  CHECK(fbosim::gp::kernel_profile(KernelFamily::matern32, 24.7 * 24.7) > 1e-17);
  CHECK(fbosim::gp::kernel_profile(KernelFamily::matern52, 20.47 * 20.47) < 1e-17);
  CHECK(fbosim::gp::kernel_profile(KernelFamily::matern52, 20.4 * 20.4) > 1e-17);
  CHECK(fbosim::gp::kernel_profile(KernelFamily::se, 8.86 * 8.86) < 1e-17);
}

TEST_CASE("CirculantGridGp: Matern samples have the exact posterior's mean and covariance") {
  const Eigen::Index G = 12;
  const double h = 0.1;
  const SeHyper hyper{0.25, 1.3, 0.05};
  const std::vector<Eigen::Index> idx{2, 3, 7, 11, 7};
  const Eigen::VectorXd y = (Eigen::VectorXd(5) << 0.4, -0.2, 1.1, 0.3, 0.9).finished();
  Eigen::MatrixXd X(5, 1);
  for (int i = 0; i < 5; ++i) X(i, 0) = h * double(idx[i]);
  for (const KernelFamily f : {KernelFamily::matern32, KernelFamily::matern52}) {
    INFO(fbosim::gp::to_string(f));
    CirculantGridGp gp(G, h, hyper, f);
    for (std::size_t i = 0; i < idx.size(); ++i) gp.add(idx[i], y[i]);
    const fbosim::testing::DensePosterior d =
        fbosim::testing::dense_posterior(as_kernel(f, hyper), X, y, grid(G, h), 0.05);
    RngStream rng(12);
    fbosim::testing::check_draw_moments([&] { return gp.sample(rng); }, d.mean, d.cov, 20000);
  }
}
