#include <catch2/catch.hpp>

#include <cmath>

#include "datasets/synthetic/box_objective.hpp"
#include "datasets/synthetic/synthetic_family.hpp"

using fbosim::core::RngFactory;
using fbosim::core::RngStream;
using fbosim::datasets::make_synthetic;
using fbosim::datasets::SyntheticSpec;

namespace {
SyntheticSpec box_spec(int dim, double perturbation) {
  SyntheticSpec s;
  s.family = "gp_box";
  s.dim = dim;
  s.lengthscale = 0.2;
  s.perturbation = perturbation;
  return s;
}
}  // namespace

TEST_CASE("gp_box: finite values roughly in [0,1], optimum above every sampled value") {
  const auto objs = make_synthetic(box_spec(2, 0.05), 3, RngFactory(12, 0));
  RngStream rng = RngFactory(12, 0).stream("test.points");
  const Eigen::MatrixXd X = rng.uniform_matrix(5000, 2);
  for (const auto& o : objs) {
    CHECK(o->domain().dim == 2);
    CHECK_FALSE(o->domain().is_grid());
    double best = -1e300, lo = 1e300;
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      const double v = o->evaluate(X.row(i).transpose());
      REQUIRE(std::isfinite(v));
      best = std::max(best, v);
      lo = std::min(lo, v);
    }
    // f_n = fhat + 0.05 g with fhat in [0,1] and g ~ N(0,1) at each x.
    CHECK(lo > -0.25);
    CHECK(best < 1.25);
    CHECK(best - lo > 0.5);
    REQUIRE(o->optimum().has_value());
    CHECK(*o->optimum() >= best);
  }
}

TEST_CASE("gp_box without perturbation: the base is normalised to [0,1] and the agents agree") {
  const auto objs = make_synthetic(box_spec(2, 0.0), 2, RngFactory(13, 0));
  RngStream rng = RngFactory(13, 0).stream("test.points");
  const Eigen::MatrixXd X = rng.uniform_matrix(5000, 2);
  double lo = 1e300, hi = -1e300;
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    const Eigen::VectorXd x = X.row(i).transpose();
    const double v = objs[0]->evaluate(x);
    CHECK(v == objs[1]->evaluate(x));
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  CHECK(lo >= -1e-9);
  CHECK(lo < 0.05);
  CHECK(hi <= 1 + 1e-9);
  CHECK(hi > 0.95);
  CHECK(*objs[0]->optimum() == 1.0);
}

TEST_CASE("gp_box in 1-D: the optimum estimate matches a dense scan") {
  for (double p : {0.05, 0.3}) {
    const auto objs = make_synthetic(box_spec(1, p), 2, RngFactory(14, 0));
    for (const auto& o : objs) {
      double best = -1e300;
      for (int j = 0; j <= 10000; ++j)
        best = std::max(best, o->evaluate(Eigen::VectorXd::Constant(1, j / 10000.0)));
      INFO("perturbation " << p);
      CHECK(*o->optimum() >= best - 1e-12);
      CHECK(*o->optimum() <= best + 1e-6);  // spacing 1e-4: the scan misses < 1e-7
    }
  }
}

TEST_CASE("gp_box: agent n is the same for 2 and 5 agents, noise has variance noise_var") {
  SyntheticSpec s = box_spec(2, 0.1);
  const auto two = make_synthetic(s, 2, RngFactory(15, 1));
  s.noise_var = 0.04;
  const auto five = make_synthetic(s, 5, RngFactory(15, 1));
  Eigen::VectorXd x(2);
  x << 0.3, 0.8;
  CHECK(two[1]->evaluate(x) == five[1]->evaluate(x));
  CHECK(*two[1]->optimum() == *five[1]->optimum());
  CHECK(two[0]->evaluate(x) != two[1]->evaluate(x));
  CHECK_THROWS_AS(two[0]->evaluate(Eigen::VectorXd::Zero(3)), std::invalid_argument);

  RngStream rng = RngFactory(15, 1).stream("test.noise");
  const double f = five[2]->evaluate(x);
  const int n = 20000;
  double ss = 0;
  for (int i = 0; i < n; ++i) ss += std::pow(five[2]->observe(x, rng) - f, 2);
  CHECK(ss / n == Approx(0.04).epsilon(0.04));  // sd of the estimate: 1 %
}
