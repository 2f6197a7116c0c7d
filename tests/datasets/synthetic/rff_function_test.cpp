#include <catch2/catch.hpp>

#include <cmath>

#include "datasets/synthetic/rff_function.hpp"

using fbosim::core::RngFactory;
using fbosim::core::RngStream;
using fbosim::datasets::RffFunction;

TEST_CASE("RFF draws have the SE covariance across draws") {
  const double l = 0.2;
  Eigen::VectorXd x0(2), x1(2), x2(2);
  x0 << 0.3, 0.4;
  x1 << 0.4, 0.4;    // |d| = 0.1: k = exp(-0.125)
  x2 << 0.55, 0.65;  // |d|^2 = 0.125: k = exp(-1.5625)
  RngStream rng = RngFactory(4, 0).stream("test.rff");
  const int draws = 10000;
  double c00 = 0, c01 = 0, c02 = 0;
  for (int d = 0; d < draws; ++d) {
    const RffFunction f = RffFunction::draw(2, 200, l, rng);
    const double f0 = f.value(x0);
    c00 += f0 * f0;
    c01 += f0 * f.value(x1);
    c02 += f0 * f.value(x2);
  }
  // sd of each estimate <= sqrt(2 / draws) = 0.014; allow ~4 sd.
  CHECK(c00 / draws == Approx(1.0).margin(0.06));
  CHECK(c01 / draws == Approx(std::exp(-0.125)).margin(0.06));
  CHECK(c02 / draws == Approx(std::exp(-1.5625)).margin(0.06));
}

TEST_CASE("value, batched values and the gradient agree") {
  RngStream rng = RngFactory(4, 1).stream("test.rff");
  const RffFunction f = RffFunction::draw(3, 300, 0.3, rng);
  const Eigen::MatrixXd X = rng.uniform_matrix(600, 3);  // more than one block of 256
  const Eigen::VectorXd v = f.values(X);
  for (Eigen::Index i = 0; i < X.rows(); i += 37)
    CHECK(v[i] == Approx(f.value(X.row(i).transpose())).epsilon(1e-12).margin(1e-12));
  const Eigen::VectorXd x = X.row(5).transpose();
  Eigen::VectorXd g;
  CHECK(f.value_and_gradient(x, g) == Approx(f.value(x)).epsilon(1e-14));
  const double h = 1e-6;
  for (int k = 0; k < 3; ++k) {
    Eigen::VectorXd xp = x, xm = x;
    xp[k] += h;
    xm[k] -= h;
    CHECK(g[k] == Approx((f.value(xp) - f.value(xm)) / (2 * h)).epsilon(1e-5).margin(1e-6));
  }
}
