// The messages' shared random features (agents::shared_features; rff.lengthscale,
// rff.lengthscales, gp.kernel): with one length scale per dimension their mean product is the
// ARD kernel's closed form (R&W eqs. 4.9, 4.17 with r^2 = sum_k (x_k - y_k)^2 / l_k^2, written
// out here), each dimension's frequencies are divided by its own length scale, and without
// rff.lengthscales the draw is the isotropic one, bit for bit.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "algorithms/agents/shared_context.hpp"
#include "algorithms/rff/message_features.hpp"
#include "core/rng.hpp"

using fbosim::core::RngStream;
using fbosim::gp::KernelChoice;
using fbosim::gp::KernelFamily;
using fbosim::rff::RandomFeatures;

namespace {

// k(x, y) / s^2 of the ARD kernels: SE exp(-r^2 / 2), Matern-5/2 (1 + sqrt5 r + 5 r^2 / 3)
// exp(-sqrt5 r), r^2 = sum_k (x_k - y_k)^2 / l_k^2.
double ard_kernel(KernelFamily f, const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                  const std::vector<double>& l) {
  double r2 = 0;
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    const double d = (x[k] - y[k]) / l[static_cast<std::size_t>(k)];
    r2 += d * d;
  }
  const double r = std::sqrt(r2);
  if (f == KernelFamily::matern52)
    return (1 + std::sqrt(5.0) * r + 5.0 * r2 / 3.0) * std::exp(-std::sqrt(5.0) * r);
  return std::exp(-r2 / 2);
}

KernelChoice kernel(KernelFamily f) {
  KernelChoice k;
  k.family = f;
  return k;
}

}  // namespace

TEST_CASE("shared features with rff.lengthscales approximate the ARD SE and Matern-5/2 kernels") {
  // phi_i(x) phi_i(y) = 2 cos(s_i . x + b_i) cos(s_i . y + b_i) has mean k(x, y) (Rahimi & Recht
  // 2007): its mean over M features is within 5 standard errors of the closed form. The
  // isotropic kernel at any one of the length scales is far outside that band for some pair,
  // so features that ignored the per-dimension scales would fail. The normalised features
  // (phi(x) . phi(x) = 1, as the messages use them) are within 6 / sqrt(M).
  const int M = 40000;
  const std::vector<double> l = {0.2, 0.9, 0.45};
  RngStream points(31);
  const Eigen::MatrixXd X = points.uniform_matrix(6, 3);
  for (const KernelFamily f : {KernelFamily::se, KernelFamily::matern52}) {
    RngStream rng(32);
    const RandomFeatures feat = fbosim::agents::shared_features(3, M, 0.05, l, kernel(f), rng);
    REQUIRE(feat.size() == M);
    CHECK(feat.signal_var() == 1.0);
    const Eigen::MatrixXd Phi = feat.features(X);
    int isotropic_far = 0;
    for (Eigen::Index a = 0; a < X.rows(); ++a)
      for (Eigen::Index b = a + 1; b < X.rows(); ++b) {
        const Eigen::VectorXd x = X.row(a).transpose(), y = X.row(b).transpose();
        const Eigen::ArrayXd cx = (feat.frequencies() * x + feat.phases()).array().cos();
        const Eigen::ArrayXd cy = (feat.frequencies() * y + feat.phases()).array().cos();
        const Eigen::ArrayXd terms = 2 * cx * cy;
        const double mean = terms.mean();
        const double se = std::sqrt((terms - mean).square().sum() / (M - 1) / M);
        const double k = ard_kernel(f, x, y, l);
        INFO(fbosim::gp::to_string(f)
             << " pair " << a << "," << b << " k " << k << " mean " << mean << " se " << se);
        CHECK(std::abs(mean - k) < 5 * se);
        CHECK(std::abs(Phi.row(a).dot(Phi.row(b)) - k) < 6 / std::sqrt(double(M)));
        bool far = true;
        for (const double iso : l)
          far = far && std::abs(mean - ard_kernel(f, x, y, {iso, iso, iso})) > 10 * se;
        isotropic_far += far;
      }
    CHECK(isotropic_far > 0);
  }
}

TEST_CASE("shared features with rff.lengthscales divide each dimension's frequencies by its own") {
  // The same stream drawn with unit length scales: s_ik = z_ik / l_k (Matern: z_i / sqrt(u_i /
  // 2 nu) / l_k), phases untouched; rff.lengthscale is unused.
  const std::vector<double> l = {0.1, 2.0};
  for (const KernelFamily f : {KernelFamily::se, KernelFamily::matern32, KernelFamily::matern52}) {
    RngStream a(33), b(33);
    const RandomFeatures ard = fbosim::agents::shared_features(2, 200, 7.0, l, kernel(f), a);
    const RandomFeatures unit = RandomFeatures::draw(2, 200, f, Eigen::VectorXd::Ones(1), 1.0, b);
    for (int i = 0; i < 200; ++i)
      for (int k = 0; k < 2; ++k)
        CHECK(ard.frequencies()(i, k) ==
              Approx(unit.frequencies()(i, k) / l[static_cast<std::size_t>(k)]).epsilon(1e-14));
    CHECK(ard.phases() == unit.phases());
    CHECK(a.uniform() == b.uniform());  // the same number of draws
  }
}

TEST_CASE("shared features without rff.lengthscales: the isotropic draw, bit for bit") {
  // The SE default (gp.kernel: se, no rff.lengthscales): S = N(0, 1)^{M x d} / l row by row,
  // then b ~ U[0, 2 pi], reconstructed here from the same stream, exactly as before the ARD
  // keys (the golden traces of every DP-FTS-DE and FTS config pin the same).
  const double l = 0.03;
  RngStream rng(34), ref(34);
  const RandomFeatures se =
      fbosim::agents::shared_features(2, 50, l, {}, kernel(KernelFamily::se), rng);
  const Eigen::MatrixXd S = ref.normal_matrix(50, 2) / l;
  CHECK(se.frequencies() == S);
  for (int i = 0; i < 50; ++i) CHECK(se.phases()[i] == ref.uniform(0.0, 2.0 * std::numbers::pi));
  CHECK(rng.uniform() == ref.uniform());
  // Matern with one length scale: the kernel draw with that one scale, bit for bit.
  RngStream m1(35), m2(35);
  const RandomFeatures mat =
      fbosim::agents::shared_features(3, 40, 0.2, {}, kernel(KernelFamily::matern32), m1);
  const RandomFeatures ref_mat = RandomFeatures::draw(3, 40, KernelFamily::matern32,
                                                      Eigen::VectorXd::Constant(1, 0.2), 1.0, m2);
  CHECK(mat.frequencies() == ref_mat.frequencies());
  CHECK(mat.phases() == ref_mat.phases());
}

TEST_CASE("rff.lengthscales must give one length scale per input dimension") {
  fbosim::schema::Problems p;
  fbosim::rff::check_message_lengthscales({}, 3, p);
  fbosim::rff::check_message_lengthscales({0.1, 0.2, 0.3}, 3, p);
  CHECK(p.empty());
  fbosim::rff::check_message_lengthscales({0.1, 0.2}, 3, p);
  REQUIRE(p.size() == 1);
  CHECK(p[0].key == "rff.lengthscales");
  CHECK(p[0].message ==
        "must list one length scale per input dimension (3 for this objective; 2 given)");
}
