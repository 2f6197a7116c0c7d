#include <catch2/catch.hpp>

#include <cmath>
#include <type_traits>

#include "algorithms/acquisition/box_maximiser.hpp"
#include "algorithms/acquisition/score_maximiser.hpp"

using fbosim::acq::BoxMaximiser;
using fbosim::acq::Candidate;
using fbosim::core::Box;
using fbosim::core::RngStream;
using fbosim::rff::RandomFeatures;

namespace {
// g(x) from the definition (spec section 1) with std::cos, independent of the library's path.
double reference_g(const RandomFeatures& f, const Eigen::VectorXd& omega,
                   const Eigen::VectorXd& x) {
  Eigen::VectorXd c(f.size());
  for (int i = 0; i < f.size(); ++i) c[i] = std::cos(f.frequencies().row(i).dot(x) + f.phases()[i]);
  return std::sqrt(f.signal_var()) * c.dot(omega) / c.norm();
}

// Best value of g over a regular grid of `per_dim` points per dimension of the box.
double grid_max(const RandomFeatures& f, const Eigen::VectorXd& omega, const Box& box,
                int per_dim) {
  const int d = box.dim();
  long total = 1;
  for (int k = 0; k < d; ++k) total *= per_dim;
  double best = -INFINITY;
  Eigen::VectorXd x(d);
  for (long idx = 0; idx < total; ++idx) {
    long rest = idx;
    for (int k = 0; k < d; ++k, rest /= per_dim)
      x[k] = box.lo[k] + (box.hi[k] - box.lo[k]) * double(rest % per_dim) / (per_dim - 1);
    best = std::max(best, reference_g(f, omega, x));
  }
  return best;
}

bool inside(const Eigen::VectorXd& x, const Box& box) {
  return (x.array() >= box.lo.array()).all() && (x.array() <= box.hi.array()).all();
}
}  // namespace

TEST_CASE("the maximiser beats a dense grid on random RFF functions (1-D and 2-D)") {
  RngStream rng(20);
  const BoxMaximiser maximiser;
  for (auto [d, per_dim] : {std::pair{1, 2001}, std::pair{2, 201}}) {
    const Box box = Box::unit(d);
    for (int rep = 0; rep < 5; ++rep) {
      const RandomFeatures f = RandomFeatures::draw(d, 50, 0.15, 1.0, rng);
      const Eigen::VectorXd omega = rng.normal_vector(50);
      const Candidate c = maximiser.maximise(f, omega, box, rng);
      CHECK(inside(c.x, box));
      CHECK(c.value == Approx(reference_g(f, omega, c.x)).margin(1e-12));
      CHECK(c.value >= grid_max(f, omega, box, per_dim) - 1e-9);
    }
  }
}

TEST_CASE("on a sub-box the result stays inside and beats the sub-box grid") {
  RngStream rng(21);
  const Box box{Eigen::Vector2d(0.2, 0.5), Eigen::Vector2d(0.45, 0.6)};
  for (int rep = 0; rep < 5; ++rep) {
    const RandomFeatures f = RandomFeatures::draw(2, 100, 0.05, 1.0, rng);
    const Eigen::VectorXd omega = rng.normal_vector(100);
    const Candidate c = BoxMaximiser().maximise(f, omega, box, rng);
    CHECK(inside(c.x, box));
    CHECK(c.value >= grid_max(f, omega, box, 201) - 1e-9);
  }
}

TEST_CASE("the result is a pure function of the stream") {
  RngStream setup(22);
  const RandomFeatures f = RandomFeatures::draw(3, 40, 0.2, 1.0, setup);
  const Eigen::VectorXd omega = setup.normal_vector(40);
  const Box box = Box::unit(3);
  RngStream a(9), b(9);
  const Candidate ca = BoxMaximiser().maximise(f, omega, box, a);
  const Candidate cb = BoxMaximiser().maximise(f, omega, box, b);
  CHECK(ca.x == cb.x);
  CHECK(ca.value == cb.value);
  CHECK(a.uniform() == b.uniform());
}

TEST_CASE("random points only: the best of lo + U (hi - lo) drawn row by row") {
  RngStream setup(23);
  const RandomFeatures f = RandomFeatures::draw(2, 30, 0.1, 1.0, setup);
  const Eigen::VectorXd omega = setup.normal_vector(30);
  const Box box{Eigen::Vector2d(0.1, 0.3), Eigen::Vector2d(0.6, 0.4)};
  BoxMaximiser::Options options;
  options.random_points = 300;
  options.starts = 0;
  RngStream rng(4), ref(4);
  const Candidate c = BoxMaximiser(options).maximise(f, omega, box, rng);
  double best = -INFINITY;
  for (int j = 0; j < 300; ++j) {
    Eigen::VectorXd x(2);
    for (int k = 0; k < 2; ++k) x[k] = box.lo[k] + ref.uniform() * (box.hi[k] - box.lo[k]);
    best = std::max(best, reference_g(f, omega, x));
  }
  CHECK(c.value == Approx(best).margin(1e-12));
}

TEST_CASE("degenerate cases: no evaluations, zero-width box") {
  RngStream rng(24);
  const RandomFeatures f = RandomFeatures::draw(2, 30, 0.1, 1.0, rng);
  const Eigen::VectorXd omega = rng.normal_vector(30);
  BoxMaximiser::Options none;
  none.random_points = 0;
  none.starts = 0;
  const Box unit = Box::unit(2);
  const Candidate centre = BoxMaximiser(none).maximise(f, omega, unit, rng);
  CHECK(centre.x == Eigen::Vector2d(0.5, 0.5));
  CHECK(centre.value == Approx(reference_g(f, omega, centre.x)).margin(1e-12));
  const Box flat{Eigen::Vector2d(0.3, 0.7), Eigen::Vector2d(0.3, 0.9)};
  const Candidate c = BoxMaximiser().maximise(f, omega, flat, rng);
  CHECK(c.x[0] == 0.3);
  CHECK(inside(c.x, flat));
  CHECK_THROWS_AS(BoxMaximiser().maximise(f, omega, Box::unit(3), rng), std::invalid_argument);
  const Box inverted{Eigen::Vector2d(0.5, 0.5), Eigen::Vector2d(0.4, 0.9)};
  CHECK_THROWS_AS(BoxMaximiser().maximise(f, omega, inverted, rng), std::invalid_argument);
}

TEST_CASE("its options are ScoreMaximiser's: one struct, every setting kept") {
  // One options struct per concept (issue 40): not a copy of some of its fields kept in step by
  // hand, so a setting added to ScoreMaximiser::Options reaches the box maximiser too.
  STATIC_REQUIRE(std::is_same_v<BoxMaximiser::Options, fbosim::acq::ScoreMaximiser::Options>);
  BoxMaximiser::Options o;
  o.random_points = 7;
  o.starts = 3;
  o.max_iterations = 5;
  o.fd_step = 1e-4;
  const BoxMaximiser m(o);
  CHECK(m.options().random_points == 7);
  CHECK(m.options().starts == 3);
  CHECK(m.options().max_iterations == 5);
  CHECK(m.options().fd_step == 1e-4);
}
