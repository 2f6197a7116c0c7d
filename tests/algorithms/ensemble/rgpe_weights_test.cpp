#include <catch2/catch.hpp>

#include "algorithms/ensemble/rgpe_weights.hpp"
#include "algorithms/surrogate/exact_gp.hpp"
#include "ensemble_fixture.hpp"

using fbosim::core::RngStream;
using fbosim::ensemble::median;
using fbosim::ensemble::percentile_linear;
using fbosim::ensemble::rgpe_weights;
using fbosim::ensemble::rgpe_weights_from_losses;
using fbosim::ensemble::RgpeOptions;
using fbosim::ensemble::SourcePosterior;
using fbosim::ensemble::Variant;
using fbosim::rff::RandomFeatures;

TEST_CASE("percentile_linear and median agree with numpy's values") {
  Eigen::VectorXd v(5);
  v << 3, 1, 4, 1, 5;
  // np.percentile([3,1,4,1,5], 95) = 4 + 0.8 * (5 - 4) = 4.8; np.median = 3.
  CHECK(percentile_linear(v, 95) == Approx(4.8).epsilon(1e-15));
  CHECK(percentile_linear(v, 0) == 1);
  CHECK(percentile_linear(v, 100) == 5);
  CHECK(median(v) == 3);
  Eigen::VectorXd w(4);
  w << 10, 0, 2, 7;
  CHECK(median(w) == 4.5);                                         // (2 + 7) / 2
  CHECK(percentile_linear(w, 50) == 4.5);                          // h = 1.5
  CHECK(percentile_linear(w, 95) == Approx(9.55).epsilon(1e-15));  // h = 2.85: 7 + .85 * 3
  CHECK_THROWS_AS(percentile_linear(Eigen::VectorXd(), 50), std::invalid_argument);
}

TEST_CASE("winners: smallest loss, ties to the target, else to the lowest index") {
  // 3 sources + target (last row), 4 samples; the target's losses make p95 large, so the
  // guard drops nobody here.
  Eigen::MatrixXd L(4, 4);
  L << 5, 2, 3, 9,  //
      5, 1, 3, 9,   //
      6, 1, 4, 9,   //
      5, 7, 3, 8;   // target
  // s0: sources 0,1 and the target tie at 5 -> target. s1: sources 1, 2 tie at 1 -> source 1.
  // s2: source 0, 1 and the target tie at 3 -> target. s3: target alone at 8.
  const Eigen::VectorXd w = rgpe_weights_from_losses(L);
  CHECK(w[0] == 0.0);
  CHECK(w[1] == 0.25);
  CHECK(w[2] == 0.0);
  CHECK(w[3] == 0.75);
  CHECK(w.sum() == 1.0);
}

TEST_CASE("dilution guard: a source whose median loss exceeds the target's 95th percentile") {
  // Target losses 0..99: p95 = 94.05. Source 0 median 94.5 > p95 -> dropped even though it
  // wins many samples; source 1 median 94 <= p95 -> kept.
  const int S = 100;
  Eigen::MatrixXd L(3, S);
  for (int s = 0; s < S; ++s) {
    L(2, s) = s;
    L(0, s) = s < 50 ? 0.0 : 189.0;  // median (0 + 189) / 2 = 94.5
    L(1, s) = s < 50 ? 1.0 : 187.0;  // median 94
  }
  CHECK(percentile_linear(L.row(2).transpose(), 95) == Approx(94.05));
  const Eigen::VectorXd w = rgpe_weights_from_losses(L);
  CHECK(w[0] == 0.0);
  // Source 1 loss 1 wins samples 2..49 (the target has 0 and 1 at s = 0, 1: ties to target).
  CHECK(w[1] == Approx(0.48));
  CHECK(w[2] == Approx(0.52));
  // Without the guard source 0 would have won the first 50 samples but s = 0 (tie -> target).
  Eigen::MatrixXd L2 = L;
  L2.row(0).tail(50).setConstant(0.0);  // median 0: kept
  CHECK(rgpe_weights_from_losses(L2)[0] == Approx(0.99));
}

namespace {
struct Problem {
  RandomFeatures f;
  Eigen::MatrixXd X;
  Eigen::VectorXd y;
  std::vector<SourcePosterior> sources;
};

// Target: bumps at n points. Source 0 is a near-copy of the target function (many points, a
// small lambda); sources 1..3 are fits to unrelated random data.
Problem make_problem(int n, std::uint64_t seed) {
  RngStream rng(seed);
  Problem p{RandomFeatures::draw(2, 60, 0.25, 1.0, rng), rng.uniform_matrix(n, 2), {}, {}};
  p.y = ensemble_test::bumps(p.X, 0.0);
  const Eigen::MatrixXd Xg = rng.uniform_matrix(200, 2);
  p.sources.push_back(
      ensemble_test::source_from_data(p.f, Xg, ensemble_test::bumps(Xg, 0.0), 1e-4));
  for (int m = 1; m < 4; ++m) {
    const Eigen::MatrixXd Xr = rng.uniform_matrix(40, 2);
    p.sources.push_back(
        ensemble_test::source_from_data(p.f, Xr, 2.0 * rng.normal_vector(40), 1e-4));
  }
  return p;
}
}  // namespace

TEST_CASE("rgpe_weights: the source that ranks the target perfectly takes most weight") {
  const Problem p = make_problem(15, 401);
  // The target GP sees only 15 points of a wiggly function: its LOO ranking is imperfect.
  const fbosim::surrogate::ExactGp gp(2, {0.5, 1.0, 1e-2});
  for (Variant v : {Variant::authors, Variant::corrected}) {
    RngStream rng(402);
    const Eigen::VectorXd w = rgpe_weights(p.sources, p.f, gp, p.X, p.y, rng, {100, v});
    CHECK(w.size() == 5);
    CHECK(w.sum() == Approx(1.0).epsilon(1e-15));
    CHECK((w.array() >= 0).all());
    CHECK(w[0] > 0.8);
    CHECK(w.segment(1, 3).sum() < 0.05);
    for (int m = 0; m < 5; ++m) CHECK(w[m] * 100 == std::round(w[m] * 100));  // multiples of 1/S
    RngStream again(402);
    CHECK(rgpe_weights(p.sources, p.f, gp, p.X, p.y, again, {100, v}) == w);
  }
}

TEST_CASE("rgpe_weights: unrelated sources are dropped by the guard, n < 2 gives the target") {
  Problem p = make_problem(20, 403);
  p.sources.erase(p.sources.begin());  // only the random sources remain
  const fbosim::surrogate::ExactGp gp(2, {0.3, 1.0, 1e-4});
  for (Variant v : {Variant::authors, Variant::corrected}) {
    RngStream rng(404);
    const Eigen::VectorXd w = rgpe_weights(p.sources, p.f, gp, p.X, p.y, rng, {100, v});
    CHECK(w[3] == 1.0);
  }
  RngStream rng(405);
  const Eigen::VectorXd w1 = rgpe_weights(p.sources, p.f, gp, p.X.topRows(1), p.y.head(1), rng);
  CHECK(w1 == Eigen::Vector4d(0, 0, 0, 1));
  CHECK_THROWS_AS(rgpe_weights(p.sources, p.f, gp, p.X, p.y, rng, {0}), std::invalid_argument);
}
