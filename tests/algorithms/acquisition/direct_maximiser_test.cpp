#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>
#include <vector>

#include <nlopt.h>
#include <Eigen/Core>

#include "algorithms/acquisition/acquisition_method.hpp"
#include "algorithms/acquisition/direct_maximiser.hpp"
#include "algorithms/rff/random_features.hpp"

using fbosim::acq::AcquisitionMethod;
using fbosim::acq::DirectAlgorithm;
using fbosim::acq::DirectMaximiser;
using fbosim::acq::ScoreMaximiser;
using fbosim::core::Box;
using fbosim::core::RngStream;

namespace {

// Standard test functions (to be minimised) with their published global minima (Surjanovic &
// Bingham's Virtual Library of Simulation Experiments; Dixon & Szego 1978).
double branin(const Eigen::VectorXd& x) {
  const double pi = std::acos(-1.0);
  const double b = 5.1 / (4 * pi * pi), c = 5 / pi, t = 1 / (8 * pi);
  const double u = x[1] - b * x[0] * x[0] + c * x[0] - 6;
  return u * u + 10 * (1 - t) * std::cos(x[0]) + 10;
}
const double kBraninMin = 0.397887;  // at (-pi, 12.275), (pi, 2.275), (9.42478, 2.475)

double hartmann(const Eigen::VectorXd& x) {
  const double alpha[4] = {1.0, 1.2, 3.0, 3.2};
  if (x.size() == 3) {
    const double A[4][3] = {{3, 10, 30}, {0.1, 10, 35}, {3, 10, 30}, {0.1, 10, 35}};
    const double P[4][3] = {{0.3689, 0.1170, 0.2673},
                            {0.4699, 0.4387, 0.7470},
                            {0.1091, 0.8732, 0.5547},
                            {0.0381, 0.5743, 0.8828}};
    double s = 0;
    for (int i = 0; i < 4; ++i) {
      double e = 0;
      for (int j = 0; j < 3; ++j) e += A[i][j] * (x[j] - P[i][j]) * (x[j] - P[i][j]);
      s -= alpha[i] * std::exp(-e);
    }
    return s;
  }
  const double A[4][6] = {{10, 3, 17, 3.5, 1.7, 8},
                          {0.05, 10, 17, 0.1, 8, 14},
                          {3, 3.5, 1.7, 10, 17, 8},
                          {17, 8, 0.05, 10, 0.1, 14}};
  const double P[4][6] = {{0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886},
                          {0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991},
                          {0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650},
                          {0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381}};
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    double e = 0;
    for (int j = 0; j < 6; ++j) e += A[i][j] * (x[j] - P[i][j]) * (x[j] - P[i][j]);
    s -= alpha[i] * std::exp(-e);
  }
  return s;
}

// The maximiser maximises: score = -f.
ScoreMaximiser::Score negated(double (*f)(const Eigen::VectorXd&)) {
  ScoreMaximiser::Score s;
  s.value = [f](const Eigen::VectorXd& x, Eigen::VectorXd*) { return -f(x); };
  return s;
}

Box box_of(const Eigen::VectorXd& lo, const Eigen::VectorXd& hi) {
  Box b = Box::unit(static_cast<int>(lo.size()));
  b.lo = lo;
  b.hi = hi;
  return b;
}

// NLopt called directly, as its documentation shows, with the same settings.
struct NloptRun {
  std::vector<double> x;
  double minf;
  int evaluations;
};
struct Objective {
  double (*f)(const Eigen::VectorXd&);
};
double nlopt_f(unsigned n, const double* x, double*, void* data) {
  return static_cast<Objective*>(data)->f(Eigen::Map<const Eigen::VectorXd>(x, n));
}
NloptRun nlopt_direct(nlopt_algorithm a, double (*f)(const Eigen::VectorXd&), const Box& box,
                      int maxeval, double eps) {
  const unsigned n = static_cast<unsigned>(box.dim());
  nlopt_opt opt = nlopt_create(a, n);
  Objective objective{f};
  nlopt_set_min_objective(opt, nlopt_f, &objective);
  nlopt_set_lower_bounds(opt, box.lo.data());
  nlopt_set_upper_bounds(opt, box.hi.data());
  nlopt_set_maxeval(opt, maxeval);
  nlopt_set_param(opt, "magic_eps", eps);
  NloptRun r{std::vector<double>(n, 0.0), 0.0, 0};
  for (unsigned j = 0; j < n; ++j) r.x[j] = 0.5 * (box.lo[j] + box.hi[j]);
  REQUIRE(nlopt_optimize(opt, r.x.data(), &r.minf) > 0);
  r.evaluations = nlopt_get_numevals(opt);
  nlopt_destroy(opt);
  return r;
}

}  // namespace

TEST_CASE("DirectMaximiser's defaults are the FTS authors' DIRECT settings") {
  // requirements/scipydirect_customized.py of their commit 9f46a1d: minimize(..., eps=1e-4,
  // maxf=20000, maxT=6000, algmethod=0), algmethod 0 being the original DIRECT.
  const DirectMaximiser::Options o;
  CHECK(o.algorithm == DirectAlgorithm::orig_direct);
  CHECK(o.max_evaluations == 20000);
  CHECK(o.eps == 1e-4);
}

TEST_CASE("DirectMaximiser finds the known minima of Branin and Hartmann-3 and -6") {
  const double pi = std::acos(-1.0);
  for (DirectAlgorithm a : {DirectAlgorithm::orig_direct, DirectAlgorithm::orig_direct_l,
                            DirectAlgorithm::direct, DirectAlgorithm::direct_l}) {
    CAPTURE(static_cast<int>(a));
    DirectMaximiser::Options o;
    o.algorithm = a;
    const DirectMaximiser m(o);
    {
      const auto r =
          m.maximise(negated(branin), box_of(Eigen::Vector2d(-5, 0), Eigen::Vector2d(10, 15)));
      CHECK(-r.value == Approx(kBraninMin).margin(1e-5));
      const Eigen::Vector2d optima[3] = {{-pi, 12.275}, {pi, 2.275}, {9.42478, 2.475}};
      double nearest = std::numeric_limits<double>::infinity();
      for (const auto& x : optima) nearest = std::min(nearest, (r.x - x).norm());
      CHECK(nearest < 1e-2);
    }
    {
      const auto r = m.maximise(negated(hartmann), Box::unit(3));
      CHECK(-r.value == Approx(-3.86278).margin(1e-4));
      CHECK((r.x - Eigen::Vector3d(0.114614, 0.555649, 0.852547)).norm() < 1e-2);
    }
    {
      const auto r = m.maximise(negated(hartmann), Box::unit(6));
      CHECK(-r.value == Approx(-3.32237).margin(1e-3));
      Eigen::VectorXd x6(6);
      x6 << 0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573;
      CHECK((r.x - x6).norm() < 3e-2);
    }
  }
}

TEST_CASE("DirectMaximiser returns NLopt's own DIRECT point bit for bit, with the same settings") {
  struct Case {
    double (*f)(const Eigen::VectorXd&);
    Box box;
  };
  const Case cases[] = {{branin, box_of(Eigen::Vector2d(-5, 0), Eigen::Vector2d(10, 15))},
                        {hartmann, Box::unit(3)},
                        {hartmann, Box::unit(6)}};
  const nlopt_algorithm algorithms[] = {NLOPT_GN_ORIG_DIRECT, NLOPT_GN_ORIG_DIRECT_L,
                                        NLOPT_GN_DIRECT, NLOPT_GN_DIRECT_L};
  const DirectAlgorithm ours[] = {DirectAlgorithm::orig_direct, DirectAlgorithm::orig_direct_l,
                                  DirectAlgorithm::direct, DirectAlgorithm::direct_l};
  for (int k = 0; k < 4; ++k)
    for (const Case& c : cases)
      for (const auto& [maxeval, eps] :
           {std::pair{20000, 1e-4}, std::pair{3000, 0.0}, std::pair{1000, 1e-2}}) {
        CAPTURE(k, c.box.dim(), maxeval, eps);
        const NloptRun want = nlopt_direct(algorithms[k], c.f, c.box, maxeval, eps);
        const auto got = DirectMaximiser({ours[k], maxeval, eps}).maximise(negated(c.f), c.box);
        for (int j = 0; j < c.box.dim(); ++j)
          CHECK(got.x[j] == want.x[static_cast<std::size_t>(j)]);
        CHECK(got.value == -want.minf);
        CHECK(got.evaluations == want.evaluations);
      }
}

TEST_CASE("DirectMaximiser's eps and evaluation budget reach NLopt") {
  // Original DIRECT finishes the iteration that passes maxf (the Fortran code's rule), so the
  // count is a little above the budget; a larger eps changes which rectangles are divided.
  const Box box = Box::unit(6);
  const auto a =
      DirectMaximiser({DirectAlgorithm::orig_direct, 2000, 0.0}).maximise(negated(hartmann), box);
  const auto b =
      DirectMaximiser({DirectAlgorithm::orig_direct, 2000, 0.1}).maximise(negated(hartmann), box);
  CHECK(a.evaluations > 2000);
  CHECK(a.evaluations < 2400);
  CHECK((a.x != b.x || a.evaluations != b.evaluations));
  const auto c =
      DirectMaximiser({DirectAlgorithm::orig_direct, 500, 0.0}).maximise(negated(hartmann), box);
  CHECK(c.evaluations > 500);
  CHECK(c.evaluations < a.evaluations);
}

TEST_CASE("DirectMaximiser is deterministic and acquisition.method direct draws nothing") {
  RngStream rng(7);
  const auto features = fbosim::rff::RandomFeatures::draw(2, 50, 0.2, 1.0, rng);
  Eigen::VectorXd omega(50);
  for (int i = 0; i < 50; ++i) omega[i] = rng.normal();
  AcquisitionMethod how;
  how.method = fbosim::acq::Method::direct;
  how.direct.max_evaluations = 3000;
  RngStream r1(11), r2(11), untouched(11);
  const auto a = fbosim::acq::maximise_sample(how, fbosim::acq::BoxMaximiser(), features, omega,
                                              Box::unit(2), r1);
  const auto b = fbosim::acq::maximise_sample(how, fbosim::acq::BoxMaximiser(), features, omega,
                                              Box::unit(2), r2);
  CHECK(a.x == b.x);
  CHECK(a.value == b.value);
  CHECK(r1.uniform() == untouched.uniform());
  // g at the returned point is the value returned; nothing on a coarse grid beats it by much.
  CHECK(features.value(a.x, omega) == Approx(a.value).epsilon(1e-12));
  double grid_best = -std::numeric_limits<double>::infinity();
  for (int i = 0; i <= 200; ++i)
    for (int j = 0; j <= 200; ++j)
      grid_best = std::max(grid_best, features.value(Eigen::Vector2d(i / 200.0, j / 200.0), omega));
  CHECK(a.value >= grid_best - 1e-3);
  // The score form gives the same point.
  ScoreMaximiser::Score s;
  s.value = [&](const Eigen::VectorXd& x, Eigen::VectorXd*) { return features.value(x, omega); };
  RngStream r3(11);
  const auto c = fbosim::acq::maximise_score(how, ScoreMaximiser(), s, Box::unit(2), r3);
  CHECK(c.x == a.x);
  CHECK(r3.uniform() == RngStream(11).uniform());
}

TEST_CASE("DirectMaximiser gives the same point on concurrent threads as alone") {
  // Agents maximise on the thread pool at once: NLopt's DIRECT keeps no shared state.
  const DirectMaximiser m({DirectAlgorithm::orig_direct, 5000, 1e-4});
  const auto alone = m.maximise(negated(hartmann), Box::unit(6));
  std::vector<DirectMaximiser::Result> got(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i)
    threads.emplace_back([&, i] { got[i] = m.maximise(negated(hartmann), Box::unit(6)); });
  for (auto& t : threads) t.join();
  for (const auto& g : got) {
    CHECK(g.x == alone.x);
    CHECK(g.value == alone.value);
    CHECK(g.evaluations == alone.evaluations);
  }
}

TEST_CASE("DirectMaximiser refuses bad boxes and scores and rethrows the score's exception") {
  const DirectMaximiser m;
  Box inverted = Box::unit(2);
  inverted.lo[1] = 2.0;
  CHECK_THROWS_AS(m.maximise(negated(branin), inverted), std::invalid_argument);
  CHECK_THROWS_AS(m.maximise(ScoreMaximiser::Score{}, Box::unit(2)), std::invalid_argument);
  CHECK_THROWS_AS(DirectMaximiser({DirectAlgorithm::orig_direct, 0, 1e-4}), std::invalid_argument);
  CHECK_THROWS_AS(DirectMaximiser({DirectAlgorithm::orig_direct, 100, -1.0}),
                  std::invalid_argument);
  int calls = 0;
  ScoreMaximiser::Score throwing;
  throwing.value = [&](const Eigen::VectorXd&, Eigen::VectorXd*) -> double {
    if (++calls == 10) throw std::domain_error("the score failed");
    return 0.0;
  };
  CHECK_THROWS_AS(m.maximise(throwing, Box::unit(2)), std::domain_error);
  CHECK(calls == 10);  // stopped at once
  ScoreMaximiser::Score nan;
  nan.value = [](const Eigen::VectorXd&, Eigen::VectorXd*) {
    return std::numeric_limits<double>::quiet_NaN();
  };
  CHECK_THROWS_AS(
      DirectMaximiser({DirectAlgorithm::orig_direct, 200, 1e-4}).maximise(nan, Box::unit(2)),
      std::runtime_error);
}

TEST_CASE("DirectMaximiser returns its best point when NLopt's DIRECT runs out of rectangles") {
  // A flat score divides every rectangle of each size: at a budget of 800 NLopt's original
  // DIRECT fills its rectangle list within an iteration (2197 evaluations) and fails with
  // "sample-points failed for DIRECT" (measured against NLopt 2.7 directly), leaving x at some
  // later point. The maximiser returns the best point evaluated, the first of equals: the
  // centre, where DIRECT starts (an FTS landmine run with RGPE ended there before).
  ScoreMaximiser::Score flat;
  flat.value = [](const Eigen::VectorXd&, Eigen::VectorXd*) { return 0.25; };
  const DirectMaximiser m({DirectAlgorithm::orig_direct, 800, 1e-4});
  const DirectMaximiser::Result r = m.maximise(flat, Box::unit(2));
  CHECK(r.evaluations > 800);  // the failing run, not a normal stop at the budget
  CHECK(r.value == 0.25);
  CHECK(r.x(0) == 0.5);
  CHECK(r.x(1) == 0.5);
  // A plateau found after the centre: the first point evaluated on it.
  ScoreMaximiser::Score step;
  step.value = [](const Eigen::VectorXd& x, Eigen::VectorXd*) { return x(0) < 0.3 ? 1.0 : 0.0; };
  const DirectMaximiser::Result s = m.maximise(step, Box::unit(2));
  CHECK(s.value == 1.0);
  CHECK(s.x(0) < 0.3);
}
