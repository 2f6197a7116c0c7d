#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "algorithms/rff/fast_trig.hpp"
#include "algorithms/rff/grid_features.hpp"
#include "algorithms/rff/random_features.hpp"
#include "algorithms/rff/trig_lanes.hpp"

// lanes::cos_only on 4-lane vectors is inlined: no call whose ABI could differ.
#pragma GCC diagnostic ignored "-Wpsabi"

using fbosim::core::RngStream;
using fbosim::rff::RandomFeatures;

namespace {
// phi(x) straight from the definition (spec section 1), with std::cos.
Eigen::VectorXd reference_phi(const RandomFeatures& f, const Eigen::VectorXd& x) {
  const int M = f.size();
  Eigen::VectorXd phi(M);
  for (int i = 0; i < M; ++i)
    phi[i] = std::sqrt(2.0 / M) * std::cos(f.frequencies().row(i).dot(x) + f.phases()[i]);
  return std::sqrt(f.signal_var()) * phi / phi.norm();
}
}  // namespace

TEST_CASE("draw: S ~ N(0, l^-2 I) row by row, then b ~ U[0, 2 pi], from the given stream") {
  RngStream rng(5), ref(5);
  const RandomFeatures f = RandomFeatures::draw(3, 7, 0.25, 1.0, rng);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 3; ++j) CHECK(f.frequencies()(i, j) == ref.normal() / 0.25);
  for (int i = 0; i < 7; ++i) CHECK(f.phases()[i] == ref.uniform(0.0, 2.0 * std::numbers::pi));
  CHECK(rng.uniform() == ref.uniform());  // nothing else was drawn
  CHECK(f.dim() == 3);
  CHECK(f.size() == 7);
}

TEST_CASE("features match the definition and are normalised to signal_var") {
  RngStream rng(1);
  for (double var : {1.0, 2.5}) {
    const RandomFeatures f = RandomFeatures::draw(2, 40, 0.1, var, rng);
    const Eigen::MatrixXd X = rng.uniform_matrix(150, 2);  // more than one block of points
    const Eigen::MatrixXd Phi = f.features(X);
    const Eigen::VectorXd omega = rng.normal_vector(40);
    const Eigen::VectorXd g = f.values(X, omega);
    for (int j = 0; j < X.rows(); ++j) {
      const Eigen::VectorXd x = X.row(j).transpose();
      const Eigen::VectorXd ref = reference_phi(f, x);
      CHECK(Phi.row(j).squaredNorm() == Approx(var).epsilon(1e-13));
      CHECK((Phi.row(j).transpose() - ref).cwiseAbs().maxCoeff() < 1e-14);
      CHECK((f.feature(x) - ref).cwiseAbs().maxCoeff() < 1e-14);
      CHECK(std::abs(g[j] - ref.dot(omega)) < 1e-12);
      CHECK(std::abs(f.value(x, omega) - ref.dot(omega)) < 1e-12);
    }
  }
}

TEST_CASE("features and values: the angles are Eigen's S X^T + b bit for bit, for every d") {
  // The angles are summed directly for small d and by Eigen's product otherwise; both must give
  // the cosines of Eigen's product (the form the golden traces were made with).
  RngStream rng(7);
  for (int d : {1, 2, 3, 7, 8, 12}) {
    const int M = 37, n = 50;  // one block of points
    const RandomFeatures f = RandomFeatures::draw(d, M, 0.3, 1.5, rng);
    const Eigen::MatrixXd X = rng.uniform_matrix(n, d);
    const Eigen::VectorXd omega = rng.normal_vector(M);
    Eigen::MatrixXd A = f.frequencies() * X.transpose();
    A.colwise() += f.phases();
    Eigen::MatrixXd C(M, n);
    fbosim::rff::fast_cos(A.data(), C.data(), M * n);
    // The normalisation in the order features() and values() apply it.
    const Eigen::RowVectorXd norm = C.colwise().norm();
    const Eigen::RowVectorXd scale = std::sqrt(1.5) * norm.cwiseInverse();
    const Eigen::MatrixXd phi = (C * scale.asDiagonal()).transpose();
    Eigen::VectorXd dot = C.transpose() * omega;
    dot.array() /= norm.transpose().array();
    if (d < 8) {
      // values() below 8 dimensions: one pass per point, cosines by lanes::cos_only, its dot
      // product and squared norm summed over the features in order.
      for (int j = 0; j < n; ++j) {
        double u = 0.0, n2 = 0.0;
        for (int i = 0; i < M; ++i) {
          const double c = fbosim::rff::lanes::cos_only(A(i, j));
          u += c * omega[i];
          n2 += c * c;
        }
        dot[j] = u / std::sqrt(n2);
      }
    }
    CHECK(f.features(X) == phi);
    CHECK(f.values(X, omega) == std::sqrt(1.5) * dot);
  }
}

TEST_CASE("values: angles beyond the fast cosine's range go to std::cos, NaN stays NaN") {
  RngStream rng(8);
  for (int d : {1, 2, 5}) {
    // l = 1e-7 puts the angles near 1e7, past fast_trig's 1e6.
    const RandomFeatures f = RandomFeatures::draw(d, 30, 1e-7, 0.7, rng);
    const Eigen::MatrixXd X = rng.uniform_matrix(7, d);
    const Eigen::VectorXd omega = rng.normal_vector(30);
    const Eigen::VectorXd g = f.values(X, omega);
    for (int j = 0; j < X.rows(); ++j)
      CHECK(std::abs(g[j] - reference_phi(f, X.row(j).transpose()).dot(omega)) < 1e-12);
    Eigen::MatrixXd Y = X;
    Y(3, 0) = std::nan("");
    const Eigen::VectorXd h = RandomFeatures::draw(d, 30, 0.2, 0.7, rng).values(Y, omega);
    CHECK(std::isnan(h[3]));
    CHECK(std::isfinite(h[2]));
  }
}

TEST_CASE("phi(x) . phi(x') approximates the SE kernel for large M") {
  RngStream rng(2);
  const int M = 20000;
  const double l = 0.3, var = 1.7;
  const RandomFeatures f = RandomFeatures::draw(2, M, l, var, rng);
  const Eigen::MatrixXd X = rng.uniform_matrix(12, 2);
  const Eigen::MatrixXd Phi = f.features(X);
  for (int i = 0; i < X.rows(); ++i)
    for (int j = 0; j < X.rows(); ++j) {
      const double k = var * std::exp(-(X.row(i) - X.row(j)).squaredNorm() / (2 * l * l));
      CHECK(std::abs(Phi.row(i).dot(Phi.row(j)) - k) < 4.0 * var / std::sqrt(double(M)));
    }
}

TEST_CASE("value() gradient matches central finite differences, normalisation included") {
  RngStream rng(3);
  for (int d : {1, 3}) {
    const RandomFeatures f = RandomFeatures::draw(d, 60, 0.2, 2.0, rng);
    RandomFeatures::Workspace ws;
    for (int rep = 0; rep < 20; ++rep) {
      const Eigen::VectorXd omega = rng.normal_vector(60);
      const Eigen::VectorXd x = rng.uniform_matrix(d, 1);
      Eigen::VectorXd grad, grad_ws;
      const double g = f.value(x, omega, &grad);
      CHECK(f.value(x, omega, &grad_ws, ws) == g);  // workspace overload: same arithmetic
      CHECK(grad_ws == grad);
      const double h = 1e-6;
      for (int k = 0; k < d; ++k) {
        Eigen::VectorXd xp = x, xm = x;
        xp[k] += h;
        xm[k] -= h;
        const double fd = (f.value(xp, omega) - f.value(xm, omega)) / (2 * h);
        CHECK(std::abs(grad[k] - fd) < 1e-6 * std::max(1.0, grad.norm()));
      }
    }
  }
}

TEST_CASE("value() and its gradient match the definition for every d and M, any angle") {
  // Reference: g = sqrt(v) c . omega / |c| with std::cos, and its gradient by the quotient rule,
  // summed in long double.
  RngStream rng(9);
  for (double l : {0.2, 1e-7})  // 1e-7: angles near 1e7, past the fast cosine's range
    for (int d : {1, 2, 3, 7, 8, 12})
      for (int M : {1, 3, 4, 37, 60}) {
        const RandomFeatures f = RandomFeatures::draw(d, M, l, 1.7, rng);
        const Eigen::VectorXd omega = rng.normal_vector(M);
        const Eigen::VectorXd x = rng.uniform_matrix(d, 1);
        long double u = 0, n2 = 0;
        std::vector<long double> A(d, 0), B(d, 0);
        for (int i = 0; i < M; ++i) {
          const double a = f.frequencies().row(i).dot(x) + f.phases()[i];
          const long double c = std::cos(a), sn = std::sin(a);
          u += c * omega[i];
          n2 += c * c;
          for (int k = 0; k < d; ++k) {
            A[k] += f.frequencies()(i, k) * sn * omega[i];
            B[k] += f.frequencies()(i, k) * sn * c;
          }
        }
        const long double norm = std::sqrt(n2), root_v = std::sqrt(1.7L);
        Eigen::VectorXd grad;
        const double g = f.value(x, omega, &grad);
        CHECK(f.value(x, omega) == g);
        const double scale = omega.cwiseAbs().sum() * std::sqrt(1.7) / static_cast<double>(norm);
        CHECK(std::abs(g - static_cast<double>(root_v * u / norm)) < 1e-13 * scale);
        REQUIRE(grad.size() == d);
        const double gscale = scale * f.frequencies().cwiseAbs().maxCoeff();
        for (int k = 0; k < d; ++k) {
          const long double ref = -(root_v / norm) * (A[k] - (u / n2) * B[k]);
          CHECK(std::abs(grad[k] - static_cast<double>(ref)) < 1e-12 * gscale);
        }
      }
}

TEST_CASE("fast_sincos and fast_cos agree with std::sin and std::cos") {
  RngStream rng(4);
  for (double range : {10.0, 1e3, 1e6, 1e9}) {  // 1e9 takes the std:: fallback path
    const int n = 20001;
    Eigen::VectorXd a(n), s(n), c(n), c2(n);
    for (int i = 0; i < n; ++i) a[i] = rng.uniform(-range, range);
    fbosim::rff::fast_sincos(a.data(), s.data(), c.data(), n);
    fbosim::rff::fast_cos(a.data(), c2.data(), n);
    double err = 0.0;
    for (int i = 0; i < n; ++i)
      err = std::max({err, std::abs(s[i] - std::sin(a[i])), std::abs(c[i] - std::cos(a[i]))});
    CHECK(err < 4e-16);
    CHECK(c2 == c);
  }
  double nan = std::nan(""), out_s = 0, out_c = 0;
  fbosim::rff::fast_sincos(&nan, &out_s, &out_c, 1);
  CHECK(std::isnan(out_s));
  CHECK(std::isnan(out_c));
}

TEST_CASE("lanes::cos_only agrees with std::cos, scalar and in 4 lanes") {
  RngStream rng(10);
  for (double range : {1.0, 10.0, 1e3, fbosim::rff::lanes::kMaxArg}) {
    double err = 0.0;
    for (int i = 0; i < 40000; i += 4) {
      fbosim::rff::lanes::Vec a;
      for (int l = 0; l < 4; ++l) a[l] = rng.uniform(-range, range);
      const fbosim::rff::lanes::Vec c = fbosim::rff::lanes::cos_only(a);
      for (int l = 0; l < 4; ++l) {
        CHECK(c[l] == fbosim::rff::lanes::cos_only(a[l]));  // a lane is the scalar
        err = std::max(err, std::abs(c[l] - std::cos(a[l])));
      }
    }
    CHECK(err < 5e-16);
  }
  // Near the multiples of pi / 2, where the reduction and the sign flip change over.
  for (int k = -200; k <= 200; ++k)
    for (double e : {-1e-9, 0.0, 1e-9}) {
      const double a = k * std::numbers::pi / 2 + e;
      CHECK(std::abs(fbosim::rff::lanes::cos_only(a) - std::cos(a)) < 5e-16);
    }
}

TEST_CASE("grid_features equals features on equally spaced and irregular grids") {
  RngStream rng(6);
  const RandomFeatures f = RandomFeatures::draw(1, 50, 0.03, 1.0, rng);
  const Eigen::MatrixXd grid = Eigen::VectorXd::LinSpaced(1000, 0.0, 1.0);
  CHECK((fbosim::rff::grid_features(f, grid) - f.features(grid)).cwiseAbs().maxCoeff() < 1e-12);
  const Eigen::MatrixXd irregular = rng.uniform_matrix(30, 1);
  CHECK(fbosim::rff::grid_features(f, irregular) == f.features(irregular));
}
