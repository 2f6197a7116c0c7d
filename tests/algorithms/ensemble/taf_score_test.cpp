#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/ensemble/taf_score.hpp"
#include "algorithms/surrogate/exact_gp.hpp"
#include "algorithms/surrogate/rff_surrogate.hpp"
#include "ensemble_fixture.hpp"

using fbosim::core::RngStream;
using fbosim::ensemble::SourcePosterior;
using fbosim::ensemble::TafScore;
using fbosim::ensemble::Variant;
using fbosim::rff::RandomFeatures;
using fbosim::surrogate::ExactGp;
using fbosim::surrogate::RffSurrogate;

namespace {
struct Setup {
  RandomFeatures f;
  std::vector<SourcePosterior> sources;
  std::vector<RffSurrogate> checks;  // the same sources as RffSurrogates (independent)
  std::vector<double> incumbents;
  ExactGp target;
  double y_max;
};

// Incumbents below the sources' best values, so that improvements are often positive.
Setup make_setup(std::uint64_t seed) {
  RngStream rng(seed);
  const int d = 2, M = 40;
  Setup s{RandomFeatures::draw(d, M, 0.3, 1.0, rng), {}, {}, {}, ExactGp(d, {0.3, 1.0, 0.01}), 0};
  for (int m = 0; m < 4; ++m) {
    const Eigen::MatrixXd Xs = rng.uniform_matrix(8 + 6 * m, d);
    const Eigen::VectorXd ys = ensemble_test::bumps(Xs, 0.4 * m);
    const double lambda = 0.02 * (m + 1);
    const auto msg = ensemble_test::message_from_data(s.f, Xs, ys, lambda);
    s.incumbents.push_back(0.3 * m - 0.2);
    s.sources.emplace_back(msg.nu, msg.sigma_inverse, lambda, s.incumbents.back());
    s.checks.emplace_back(s.f, lambda);
    s.checks.back().fit(Xs, ys);
  }
  const Eigen::MatrixXd X = rng.uniform_matrix(10, d);
  const Eigen::VectorXd y = ensemble_test::bumps(X, 0.1);
  s.target.fit(X, y);
  s.y_max = y.maxCoeff();
  return s;
}

// TAF written out from RffSurrogate and ExactGp predictions; eps: one normal per source with
// w > 0 (authors), ignored for corrected.
double taf_by_hand(const Setup& s, const Eigen::VectorXd& w, const Eigen::VectorXd& x, Variant v,
                   const Eigen::VectorXd& eps) {
  double num = 0;
  int i = 0;
  for (int m = 0; m < 4; ++m) {
    if (w[m] == 0) continue;
    const auto p = s.checks[m].predict(x.transpose());
    const double g =
        v == Variant::authors ? p.mean[0] + eps[i++] * std::sqrt(p.variance[0]) : p.mean[0];
    num += w[m] * std::max(0.0, g - s.incumbents[m]);
  }
  const auto t = s.target.predict(x.transpose());
  const double var = t.variance[0] + (v == Variant::authors ? s.target.noise_var() : 0.0);
  num += w[4] * ensemble_test::ei(t.mean[0], var, s.y_max);
  return num / w.sum();
}

const Eigen::VectorXd kWeights = (Eigen::VectorXd(5) << 0.5, 0.0, 0.7, 0.3, 0.75).finished();
}  // namespace

TEST_CASE("TafScore corrected: value by hand, gradient by central differences, batch") {
  const Setup s = make_setup(701);
  const TafScore score(s.f, s.sources, kWeights, s.target, s.y_max, Variant::corrected);
  CHECK(score.active_sources() == std::vector<int>{0, 2, 3});
  RngStream rng(702);
  const Eigen::MatrixXd X = rng.uniform_matrix(40, 2);
  const Eigen::VectorXd batch = score.batch(X);
  int improving = 0;
  for (int j = 0; j < X.rows(); ++j) {
    const Eigen::VectorXd x = X.row(j).transpose();
    Eigen::VectorXd grad;
    const double val = score.value(x, &grad);
    CHECK(val == Approx(taf_by_hand(s, kWeights, x, Variant::corrected, {})).epsilon(1e-9));
    CHECK(batch[j] == Approx(val).epsilon(1e-10).margin(1e-14));
    improving += val > kWeights[4] * 0.5;  // rough count of points with a source term
    const double h = 1e-6;
    for (int k = 0; k < 2; ++k) {
      Eigen::VectorXd up = x, down = x;
      up[k] += h;
      down[k] -= h;
      const double fd = (score.value(up, nullptr) - score.value(down, nullptr)) / (2 * h);
      CHECK(grad[k] == Approx(fd).epsilon(1e-5).margin(1e-7));
    }
  }
  CHECK(improving > 0);
}

TEST_CASE("TafScore authors: value and gradient with the draws held fixed") {
  const Setup s = make_setup(703);
  RngStream stream(704);
  const TafScore score(s.f, s.sources, kWeights, s.target, s.y_max, Variant::authors, &stream);
  RngStream rng(705);
  int positive = 0, skipped = 0;
  for (int j = 0; j < 300; ++j) {
    const Eigen::VectorXd x = rng.uniform_matrix(2, 1).col(0);
    const Eigen::VectorXd eps = 1.5 * rng.normal_vector(3);
    Eigen::VectorXd grad;
    const double val = score.value_with_draws(x, eps, &grad);
    // The hand formula computes every variance: this also checks the skipped ones.
    CHECK(val == Approx(taf_by_hand(s, kWeights, x, Variant::authors, eps)).epsilon(1e-9));
    CHECK(score.value_with_draws(x, eps, nullptr) == val);
    if (j % 10 != 0) continue;
    const double h = 1e-6;
    for (int k = 0; k < 2; ++k) {
      Eigen::VectorXd up = x, down = x;
      up[k] += h;
      down[k] -= h;
      const double fd =
          (score.value_with_draws(up, eps, nullptr) - score.value_with_draws(down, eps, nullptr)) /
          (2 * h);
      CHECK(grad[k] == Approx(fd).epsilon(1e-5).margin(1e-7));
    }
    for (int i = 0; i < 3; ++i) {
      const int m = score.active_sources()[i];
      const double mu = s.checks[m].predict(x.transpose()).mean[0];
      positive += mu + eps[i] * 1.0 > s.incumbents[m];
      skipped += eps[i] > 0 && mu + eps[i] * 1.0 <= s.incumbents[m];
    }
  }
  CHECK(positive > 0);
  CHECK(skipped > 0);
}

TEST_CASE("TafScore authors: value() draws one normal per active source, batch = per point") {
  const Setup s = make_setup(706);
  RngStream a(707), b(707), c(707);
  const TafScore sa(s.f, s.sources, kWeights, s.target, s.y_max, Variant::authors, &a);
  const TafScore sb(s.f, s.sources, kWeights, s.target, s.y_max, Variant::authors, &b);
  RngStream rng(708);
  const Eigen::MatrixXd X = rng.uniform_matrix(25, 2);
  const Eigen::VectorXd batch = sa.batch(X);
  Eigen::MatrixXd E(25, 3);
  for (int j = 0; j < 25; ++j) {
    const Eigen::VectorXd x = X.row(j).transpose();
    const double v = sb.value(x, nullptr);
    CHECK(batch[j] == Approx(v).epsilon(1e-10).margin(1e-14));
    for (int i = 0; i < 3; ++i) E(j, i) = c.normal();
    CHECK(v == Approx(sb.value_with_draws(x, E.row(j).transpose(), nullptr)).epsilon(1e-15));
  }
  CHECK(sa.batch_with_draws(X, E) == batch);
  CHECK(a.normal() == b.normal());  // both consumed 25 x 3 normals
  // Fresh draws: two evaluations at one point differ (in general).
  const Eigen::VectorXd x0 = X.row(0).transpose();
  double lo = 1e300, hi = -1e300;
  for (int r = 0; r < 50; ++r) {
    const double v = sa.value(x0, nullptr);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  CHECK(hi > lo);
}

TEST_CASE("TafScore validates its inputs") {
  const Setup s = make_setup(709);
  RngStream rng(710);
  CHECK_THROWS_AS(TafScore(s.f, s.sources, kWeights, s.target, s.y_max, Variant::authors),
                  std::invalid_argument);  // no stream
  std::vector<SourcePosterior> no_incumbent{
      SourcePosterior(s.sources[0].nu(), s.sources[0].sigma_inverse(), s.sources[0].noise_var())};
  CHECK_THROWS_WITH(TafScore(s.f, no_incumbent, Eigen::Vector2d(0.5, 0.75), s.target, s.y_max,
                             Variant::corrected),
                    Catch::Contains("no incumbent"));
  // ... unless its weight is 0.
  const TafScore t(s.f, no_incumbent, Eigen::Vector2d(0.0, 0.75), s.target, s.y_max,
                   Variant::corrected);
  CHECK(t.active_sources().empty());
  const TafScore a(s.f, s.sources, kWeights, s.target, s.y_max, Variant::authors, &rng);
  CHECK_THROWS_AS(a.value_with_draws(Eigen::Vector2d(0.5, 0.5), Eigen::VectorXd(2), nullptr),
                  std::invalid_argument);
}
