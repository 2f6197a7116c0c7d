#include <catch2/catch.hpp>

#include <cmath>

#include "datasets/synthetic/grid_gp_sampler.hpp"

using fbosim::core::RngFactory;
using fbosim::core::RngStream;
using fbosim::datasets::GridGpSampler;
using fbosim::datasets::min_max_normalise;

TEST_CASE("grid points are j/(n-1) and the jitter stays at 1e-8 for the paper's setting") {
  const GridGpSampler s(1000, 0.03);
  REQUIRE(s.grid().rows() == 1000);
  REQUIRE(s.grid().cols() == 1);
  CHECK(s.grid()(0, 0) == 0.0);
  CHECK(s.grid()(999, 0) == 1.0);
  CHECK(s.grid()(333, 0) == Approx(333.0 / 999).epsilon(1e-15));
  CHECK(s.jitter() == 1e-8);
}

TEST_CASE("empirical covariance of many draws matches the SE kernel at several lags") {
  // 40 points, l = 0.1: lag j has k = exp(-(j h)^2 / (2 l^2)), h = 1/39.
  const int n = 40;
  const double l = 0.1, h = 1.0 / (n - 1);
  const GridGpSampler s(n, l);
  RngStream rng = RngFactory(7, 0).stream("test.gp");
  const int draws = 20000;
  const int lags[] = {0, 1, 3, 5, 8};
  double cov[5] = {0, 0, 0, 0, 0};
  double mean0 = 0;
  for (int d = 0; d < draws; ++d) {
    const Eigen::VectorXd f = s.sample(rng);
    mean0 += f[10];
    for (int k = 0; k < 5; ++k) cov[k] += f[10] * f[10 + lags[k]];
  }
  CHECK(std::abs(mean0 / draws) < 0.03);  // 4 standard errors of the mean
  for (int k = 0; k < 5; ++k) {
    const double lag = lags[k] * h;
    const double expected = std::exp(-lag * lag / (2 * l * l));
    // The estimator's sd is sqrt((1 + k^2) / draws) <= 0.01; allow 4 sd.
    INFO("lag " << lags[k] << " expected " << expected);
    CHECK(std::abs(cov[k] / draws - expected) < 0.04);
  }
}

TEST_CASE("draws are reproducible from the stream") {
  const GridGpSampler s(100, 0.05);
  RngStream a = RngFactory(3, 1).stream("x"), b = RngFactory(3, 1).stream("x");
  CHECK(s.sample(a) == s.sample(b));
}

TEST_CASE("min_max_normalise maps to [0,1] exactly") {
  Eigen::VectorXd v(4);
  v << 3.0, -1.5, 0.25, 7.0;
  const Eigen::VectorXd u = min_max_normalise(v);
  CHECK(u.minCoeff() == 0.0);
  CHECK(u.maxCoeff() == 1.0);
  CHECK(u[2] == Approx((0.25 + 1.5) / 8.5).epsilon(1e-14));
  CHECK(min_max_normalise(Eigen::VectorXd::Constant(3, 2.0)) == Eigen::VectorXd::Zero(3));
}

TEST_CASE("near-singular kernels (long length scales) still factorise") {
  for (const double l : {0.3, 2.0, 50.0}) {
    const GridGpSampler s(1000, l);
    RngStream rng = RngFactory(1, 0).stream("x");
    const Eigen::VectorXd f = s.sample(rng);
    CHECK(f.allFinite());
    CHECK(s.jitter() <= 1e-4);
    // Smooth on the scale of l: neighbouring points differ by far less than the sd of 1.
    CHECK((f.tail(999) - f.head(999)).cwiseAbs().maxCoeff() < 0.1);
  }
}

TEST_CASE("bad sampler arguments throw") {
  CHECK_THROWS_AS(GridGpSampler(1, 0.1), std::invalid_argument);
  CHECK_THROWS_AS(GridGpSampler(10, 0.0), std::invalid_argument);
}
