#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Dense>

#include "algorithms/acquisition/box_maximiser.hpp"
#include "algorithms/acquisition/score_maximiser.hpp"
#include "algorithms/rff/random_features.hpp"

using fbosim::acq::BoxMaximiser;
using fbosim::acq::finite_difference_gradient;
using fbosim::acq::ScoreMaximiser;
using fbosim::core::Box;
using fbosim::core::RngStream;
using fbosim::rff::RandomFeatures;

namespace {
// f(x) = exp(-|x - a|^2 / 0.08) + 0.6 exp(-|x - b|^2 / 0.02): a smooth bimodal bump with its
// global maximum near a (the b bump is lower and far enough not to shift it much).
const Eigen::Vector2d kA(0.62, 0.31), kB(0.2, 0.8);
double bumps(const Eigen::VectorXd& x, Eigen::VectorXd* grad) {
  const double ea = std::exp(-(x - kA).squaredNorm() / 0.08);
  const double eb = 0.6 * std::exp(-(x - kB).squaredNorm() / 0.02);
  if (grad) *grad = -2.0 / 0.08 * ea * (x - kA) - 2.0 / 0.02 * eb * (x - kB);
  return ea + eb;
}
ScoreMaximiser::Score bumps_score(bool gradient) {
  ScoreMaximiser::Score s;
  s.value = bumps;
  s.has_gradient = gradient;
  return s;
}
}  // namespace

TEST_CASE(
    "ScoreMaximiser finds the maximum of a known smooth function, with and without a "
    "gradient") {
  // The stationary point near kA, found independently by Newton's method on the gradient with
  // a finite-difference Hessian.
  Eigen::VectorXd x = kA;
  for (int it = 0; it < 50; ++it) {
    Eigen::VectorXd g, gp, gm;
    bumps(x, &g);
    Eigen::Matrix2d H;
    for (int j = 0; j < 2; ++j) {
      Eigen::VectorXd up = x, down = x;
      up[j] += 1e-6;
      down[j] -= 1e-6;
      bumps(up, &gp);
      bumps(down, &gm);
      H.col(j) = (gp - gm) / 2e-6;
    }
    x -= H.lu().solve(g);
  }
  const double fmax = bumps(x, nullptr);
  for (bool gradient : {true, false}) {
    RngStream rng(50);
    const auto r = ScoreMaximiser().maximise(bumps_score(gradient), Box::unit(2), rng);
    CHECK((r.x - x).norm() < 1e-5);
    CHECK(r.value == Approx(fmax).epsilon(1e-10));
    CHECK(r.value == bumps(r.x, nullptr));
  }
  // On a sub-box away from kA the maximum is on the boundary: at the edge x0 = 0.45, found by a
  // 1-D grid search along it (the bump's slope points out of the box there).
  const Box sub{Eigen::Vector2d(0.1, 0.0), Eigen::Vector2d(0.45, 0.6)};
  double edge_best = -1;
  for (int i = 0; i <= 600000; ++i) {
    const Eigen::Vector2d p(0.45, 0.6 * i / 600000.0);
    edge_best = std::max(edge_best, bumps(p, nullptr));
  }
  for (bool gradient : {true, false}) {
    RngStream rng(51);
    const auto r = ScoreMaximiser().maximise(bumps_score(gradient), sub, rng);
    CHECK(r.x[0] == Approx(0.45).margin(1e-7));
    CHECK(r.value == Approx(edge_best).epsilon(1e-9));
    CHECK((r.x.array() >= sub.lo.array()).all());
    CHECK((r.x.array() <= sub.hi.array()).all());
  }
}

TEST_CASE("the finite-difference gradient matches the analytic one, inside and at bounds") {
  RngStream rng(52);
  const Box box = Box::unit(2);
  auto f = [](const Eigen::VectorXd& p) { return bumps(p, nullptr); };
  for (int rep = 0; rep < 20; ++rep) {
    Eigen::VectorXd x = rng.uniform_matrix(2, 1);
    if (rep % 4 == 0) x[0] = 0.0;  // one-sided at a bound
    if (rep % 4 == 1) x[1] = 1.0;
    Eigen::VectorXd g;
    bumps(x, &g);
    const Eigen::VectorXd fd = finite_difference_gradient(f, x, box.lo, box.hi, 1e-6);
    for (int j = 0; j < 2; ++j) CHECK(fd[j] == Approx(g[j]).epsilon(1e-4).margin(1e-5));
  }
  // A zero-width coordinate has no slope to measure.
  const Eigen::VectorXd flat = finite_difference_gradient(
      f, Eigen::Vector2d(0.3, 0.5), Eigen::Vector2d(0.3, 0.0), Eigen::Vector2d(0.3, 1.0), 1e-6);
  CHECK(flat[0] == 0.0);
}

TEST_CASE("with phi(x) . omega as the score it reproduces BoxMaximiser exactly") {
  RngStream setup(53);
  for (int rep = 0; rep < 4; ++rep) {
    const RandomFeatures f = RandomFeatures::draw(3, 60, 0.15, 1.0, setup);
    const Eigen::VectorXd omega = setup.normal_vector(60);
    const Box box{Eigen::Vector3d(0.1, 0.0, 0.4), Eigen::Vector3d(0.7, 0.5, 0.9)};
    ScoreMaximiser::Score s;
    s.value = [&](const Eigen::VectorXd& x, Eigen::VectorXd* grad) {
      return f.value(x, omega, grad);
    };
    s.has_gradient = true;
    s.batch = [&](const Eigen::MatrixXd& X) { return f.values(X, omega); };
    RngStream a(100 + rep), b(100 + rep);
    const auto r = ScoreMaximiser().maximise(s, box, a);
    const auto c = BoxMaximiser().maximise(f, omega, box, b);
    CHECK(r.x == c.x);
    CHECK(r.value == c.value);
    CHECK(a.uniform() == b.uniform());  // the same number of draws
  }
}

TEST_CASE("ScoreMaximiser: deterministic, random points only, bad input") {
  ScoreMaximiser::Options only;
  only.starts = 0;
  only.random_points = 500;
  RngStream a(54), b(54), ref(54);
  const auto r1 = ScoreMaximiser(only).maximise(bumps_score(false), Box::unit(2), a);
  const auto r2 = ScoreMaximiser(only).maximise(bumps_score(false), Box::unit(2), b);
  CHECK(r1.x == r2.x);
  double best = -1;
  for (int j = 0; j < 500; ++j) {
    Eigen::VectorXd x(2);
    x[0] = ref.uniform();
    x[1] = ref.uniform();
    best = std::max(best, bumps(x, nullptr));
  }
  CHECK(r1.value == best);
  ScoreMaximiser::Options none;
  none.starts = 0;
  none.random_points = 0;
  const auto centre = ScoreMaximiser(none).maximise(bumps_score(true), Box::unit(2), a);
  CHECK(centre.x == Eigen::Vector2d(0.5, 0.5));
  CHECK(centre.value == bumps(centre.x, nullptr));
  CHECK_THROWS_AS(ScoreMaximiser().maximise(ScoreMaximiser::Score{}, Box::unit(2), a),
                  std::invalid_argument);
  const Box inverted{Eigen::Vector2d(0.5, 0.5), Eigen::Vector2d(0.4, 0.9)};
  CHECK_THROWS_AS(ScoreMaximiser().maximise(bumps_score(true), inverted, a), std::invalid_argument);
  ScoreMaximiser::Options bad;
  bad.fd_step = 0.0;
  CHECK_THROWS_AS(ScoreMaximiser{bad}, std::invalid_argument);
}
