#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "datasets/synthetic/grid_objective.hpp"

using fbosim::core::Domain;
using fbosim::core::RngFactory;
using fbosim::core::RngStream;
using fbosim::datasets::GridObjective;

namespace {
Eigen::VectorXd x1(double v) { return Eigen::VectorXd::Constant(1, v); }

GridObjective make(int n, double noise_var) {
  auto d = std::make_shared<Domain>();
  d->dim = 1;
  d->grid.resize(n, 1);
  Eigen::VectorXd v(n);
  for (int j = 0; j < n; ++j) {
    d->grid(j, 0) = static_cast<double>(j) / (n - 1);
    v[j] = std::sin(0.37 * j);  // distinct values, so a wrong index shows
  }
  return GridObjective(d, v, noise_var);
}
}  // namespace

TEST_CASE("evaluate returns the value at grid points and at the nearest one in between") {
  const int n = 11;  // spacing 0.1
  const GridObjective o = make(n, 0.0);
  for (int j = 0; j < n; ++j) CHECK(o.evaluate(x1(j / 10.0)) == std::sin(0.37 * j));
  CHECK(o.index_of(x1(0.34)) == 3);
  CHECK(o.index_of(x1(0.36)) == 4);
  CHECK(o.index_of(x1(0.049)) == 0);
  CHECK(o.index_of(x1(-0.3)) == 0);
  CHECK(o.index_of(x1(1.7)) == 10);
  CHECK(o.evaluate(x1(0.66)) == std::sin(0.37 * 7));
  CHECK(*o.optimum() == o.values().maxCoeff());
  CHECK(o.domain().dim == 1);
  CHECK(o.domain().grid.rows() == n);
}

TEST_CASE("bad inputs to a grid objective throw") {
  const GridObjective o = make(5, 0.0);
  CHECK_THROWS_AS(o.evaluate(Eigen::VectorXd::Zero(2)), std::invalid_argument);
  CHECK_THROWS_AS(o.evaluate(x1(std::nan(""))), std::invalid_argument);
}

TEST_CASE("observe adds N(0, noise_var) noise") {
  const double noise_var = 0.01;
  const GridObjective o = make(21, noise_var);
  RngStream rng = RngFactory(11, 0).stream("test.noise");
  const Eigen::VectorXd x = x1(0.5);
  const double f = o.evaluate(x);
  const int n = 200000;
  double s = 0, ss = 0;
  for (int i = 0; i < n; ++i) {
    const double e = o.observe(x, rng) - f;
    s += e;
    ss += e * e;
  }
  const double mean = s / n, var = ss / n - mean * mean;
  CHECK(std::abs(mean) < 4 * std::sqrt(noise_var / n));
  CHECK(var == Approx(noise_var).epsilon(0.02));  // sd of the estimate is 0.3 % of it
  CHECK(o.noise_var() == Approx(noise_var));
}
