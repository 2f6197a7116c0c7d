// Random features of the SE and Matern kernels with ARD length scales
// (RandomFeatures::draw(dim, M, family, lengthscales, ...)): the draw order, the spectral
// samples' distribution (the multivariate t of Matern-nu, R&W eq. 4.15) and the kernel
// approximation E[phi(x) . phi(y)] = k(x, y), against closed forms within stated Monte Carlo
// tolerances.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "algorithms/gp/kernel.hpp"
#include "algorithms/rff/fixed_feature_blr.hpp"
#include "algorithms/rff/random_features.hpp"
#include "core/rng.hpp"

using fbosim::core::RngStream;
using fbosim::gp::KernelFamily;
using fbosim::rff::RandomFeatures;

namespace {
constexpr KernelFamily kFamilies[] = {KernelFamily::se, KernelFamily::matern32,
                                      KernelFamily::matern52};

// k(x, y) / s^2 from R&W eqs. 4.9 and 4.17, written out here.
double reference_profile(KernelFamily f, double r) {
  if (f == KernelFamily::matern32) return (1 + std::sqrt(3.0) * r) * std::exp(-std::sqrt(3.0) * r);
  if (f == KernelFamily::matern52)
    return (1 + std::sqrt(5.0) * r + 5.0 * r * r / 3.0) * std::exp(-std::sqrt(5.0) * r);
  return std::exp(-r * r / 2);
}

double scaled_distance(const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                       const Eigen::VectorXd& l) {
  double r2 = 0;
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    const double lk = l.size() == 1 ? l[0] : l[k];
    r2 += (x[k] - y[k]) * (x[k] - y[k]) / (lk * lk);
  }
  return std::sqrt(r2);
}

// P(l^2 |s|^2 <= q) in d = 2 dimensions: chi^2_2 for SE, 2 F(2, nu') for a t with nu' = 2 nu
// degrees of freedom (|z|^2 / (u / nu'), z ~ N(0, I_2), u ~ chi^2_nu'); both closed forms.
double radial_cdf(KernelFamily f, double q) {
  const double nu = fbosim::gp::matern_nu(f);
  if (nu == 0) return 1 - std::exp(-q / 2);
  const double dof = 2 * nu;
  return 1 - std::pow(1 + q / dof, -dof / 2);
}
}  // namespace

TEST_CASE("kernel draw: z row by row, then one chi-square per feature, then b") {
  for (const KernelFamily f : kFamilies) {
    RngStream rng(21), ref(21);
    const Eigen::Vector3d l(0.5, 2.0, 0.25);
    const RandomFeatures feat = RandomFeatures::draw(3, 6, f, l, 1.3, rng);
    Eigen::MatrixXd Z(6, 3);
    for (int i = 0; i < 6; ++i)
      for (int k = 0; k < 3; ++k) Z(i, k) = ref.normal();
    const int dof = static_cast<int>(2 * fbosim::gp::matern_nu(f));
    for (int i = 0; i < 6; ++i) {
      double u = 0;
      for (int j = 0; j < dof; ++j) {
        const double z = ref.normal();
        u += z * z;
      }
      const double scale = dof > 0 ? std::sqrt(u / dof) : 1.0;
      for (int k = 0; k < 3; ++k)
        CHECK(feat.frequencies()(i, k) == Approx(Z(i, k) / scale / l[k]).epsilon(1e-14));
    }
    for (int i = 0; i < 6; ++i) CHECK(feat.phases()[i] == ref.uniform(0.0, 2.0 * std::numbers::pi));
    CHECK(rng.uniform() == ref.uniform());  // nothing else was drawn
    CHECK(feat.signal_var() == 1.3);
  }
}

TEST_CASE("kernel draw of isotropic SE equals the SE draw bit for bit") {
  RngStream a(22), b(22);
  const RandomFeatures se = RandomFeatures::draw(2, 50, 0.3, 0.7, a);
  const RandomFeatures k =
      RandomFeatures::draw(2, 50, KernelFamily::se, Eigen::VectorXd::Constant(1, 0.3), 0.7, b);
  CHECK(se.frequencies() == k.frequencies());
  CHECK(se.phases() == k.phases());
  CHECK_THROWS_AS(RandomFeatures::draw(3, 5, KernelFamily::matern32, Eigen::Vector2d(1, 1), 1, a),
                  std::invalid_argument);
  CHECK_THROWS_AS(RandomFeatures::draw(2, 5, KernelFamily::matern52, Eigen::Vector2d(1, 0), 1, a),
                  std::invalid_argument);
}

TEST_CASE("spectral samples: the radial law of the multivariate t (or normal), per family") {
  // l^2 |s|^2 (ARD: sum_k l_k^2 s_k^2) has the closed-form CDF radial_cdf: for Matern the
  // dimensions of a frequency share one chi-square (independent t's per dimension would fail
  // this). The fraction below q is binomial: 5 standard errors.
  const int M = 40000;
  for (const KernelFamily f : kFamilies)
    for (const bool ard : {false, true}) {
      RngStream rng(23);
      const Eigen::VectorXd l =
          ard ? Eigen::VectorXd(Eigen::Vector2d(0.2, 3.0)) : Eigen::VectorXd::Constant(1, 0.4);
      const RandomFeatures feat = RandomFeatures::draw(2, M, f, l, 1.0, rng);
      const Eigen::MatrixXd scaled =
          feat.frequencies() *
          (ard ? Eigen::VectorXd(l) : Eigen::VectorXd::Constant(2, l[0])).asDiagonal();
      const Eigen::VectorXd q2 = scaled.rowwise().squaredNorm();
      for (const double q : {0.2, 1.0, 2.5, 6.0, 20.0}) {
        const double p = radial_cdf(f, q);
        const double frac = (q2.array() <= q).cast<double>().mean();
        INFO(fbosim::gp::to_string(f) << " ard " << ard << " q " << q << " p " << p);
        CHECK(std::abs(frac - p) < 5 * std::sqrt(p * (1 - p) / M));
      }
    }
}

TEST_CASE("spectral samples: Var(s_k) = nu / ((nu - 1) l_k^2) for Matern-5/2, 1 / l_k^2 for SE") {
  // A t with nu' = 2 nu = 5 degrees of freedom has variance nu' / (nu' - 2) = 5/3 = nu / (nu - 1)
  // and E T^4 = 3 nu'^2 / ((nu' - 2)(nu' - 4)) = 25, so the mean of T^2 has standard error
  // sqrt((25 - 25/9) / M). (Matern-3/2's t with 3 degrees of freedom has no fourth moment, so
  // its sample variance has no standard error: the radial law above checks it.)
  const int M = 200000;
  const Eigen::Vector3d l(0.1, 1.0, 4.0);
  for (const KernelFamily f : {KernelFamily::se, KernelFamily::matern52}) {
    RngStream rng(24);
    const RandomFeatures feat = RandomFeatures::draw(3, M, f, l, 1.0, rng);
    const double var = f == KernelFamily::se ? 1.0 : 5.0 / 3.0;
    const double var_t2 = f == KernelFamily::se ? 2.0 : 25.0 - 25.0 / 9.0;
    for (int k = 0; k < 3; ++k) {
      const double v = (feat.frequencies().col(k).array() * l[k]).square().mean();
      INFO(fbosim::gp::to_string(f) << " dimension " << k);
      CHECK(std::abs(v - var) < 5 * std::sqrt(var_t2 / M));
    }
  }
}

TEST_CASE("the features' mean product converges to k(x, y), per family, isotropic and ARD") {
  // phi_i(x) phi_i(y) = 2 s^2 cos(s_i . x + b_i) cos(s_i . y + b_i) has mean k(x, y) (Rahimi &
  // Recht 2007): its mean over M features is within 5 standard errors (the terms' sample
  // standard deviation over sqrt(M)) of the closed form. The normalised features of
  // features() (phi(x) . phi(x) = s^2, the DP-FTS-DE code) are within 6 / sqrt(M) s^2.
  const int M = 40000;
  const double s2 = 1.6;
  RngStream points(25);
  const Eigen::MatrixXd X = points.uniform_matrix(5, 3);
  for (const KernelFamily f : kFamilies)
    for (const bool ard : {false, true}) {
      RngStream rng(26);
      const Eigen::VectorXd l =
          ard ? Eigen::VectorXd(Eigen::Vector3d(0.3, 1.2, 0.6)) : Eigen::VectorXd::Constant(1, 0.5);
      const RandomFeatures feat = RandomFeatures::draw(3, M, f, l, s2, rng);
      const Eigen::MatrixXd Phi = feat.features(X);
      for (Eigen::Index a = 0; a < X.rows(); ++a)
        for (Eigen::Index b = a + 1; b < X.rows(); ++b) {
          const Eigen::VectorXd x = X.row(a).transpose(), y = X.row(b).transpose();
          const Eigen::ArrayXd cx = ((feat.frequencies() * x + feat.phases()).array()).cos();
          const Eigen::ArrayXd cy = ((feat.frequencies() * y + feat.phases()).array()).cos();
          const Eigen::ArrayXd terms = 2 * s2 * cx * cy;
          const double mean = terms.mean();
          const double sd = std::sqrt((terms - mean).square().sum() / (M - 1));
          const double k = s2 * reference_profile(f, scaled_distance(x, y, l));
          INFO(fbosim::gp::to_string(f) << " ard " << ard << " k " << k << " mean " << mean);
          CHECK(std::abs(mean - k) < 5 * sd / std::sqrt(double(M)));
          CHECK(std::abs(Phi.row(a).dot(Phi.row(b)) - k) < 6 * s2 / std::sqrt(double(M)));
        }
    }
}

TEST_CASE("FixedFeatureBlr rescales each dimension by its own length scale") {
  RngStream rng(27);
  const RandomFeatures base =
      RandomFeatures::draw(2, 30, KernelFamily::matern52, Eigen::VectorXd::Ones(1), 1.0, rng);
  fbosim::rff::FixedFeatureBlr blr(base);
  const Eigen::Vector2d l(0.5, 4.0);
  CHECK(blr.set_hyper(l, 2.0, 0.01));
  CHECK_FALSE(blr.set_hyper(l, 2.0, 0.01));
  for (int i = 0; i < 30; ++i)
    for (int k = 0; k < 2; ++k)
      CHECK(blr.features().frequencies()(i, k) ==
            Approx(base.frequencies()(i, k) / l[k]).epsilon(1e-15));
  CHECK(blr.features().signal_var() == 2.0);
  CHECK(blr.set_hyper(Eigen::VectorXd::Constant(1, 0.5), 2.0, 0.01));
  CHECK(blr.features().frequencies() == base.frequencies() / 0.5);
  CHECK_THROWS_AS(blr.set_hyper(Eigen::Vector3d(1, 1, 1), 2.0, 0.01), std::invalid_argument);
}
