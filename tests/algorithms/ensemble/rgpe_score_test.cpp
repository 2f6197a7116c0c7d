#include <catch2/catch.hpp>

#include "algorithms/acquisition/score_maximiser.hpp"
#include "algorithms/ensemble/rgpe_score.hpp"
#include "algorithms/surrogate/exact_gp.hpp"
#include "algorithms/surrogate/rff_surrogate.hpp"
#include "ensemble_fixture.hpp"

using fbosim::core::RngStream;
using fbosim::ensemble::RgpeScore;
using fbosim::ensemble::SourcePosterior;
using fbosim::ensemble::Variant;
using fbosim::rff::RandomFeatures;
using fbosim::surrogate::ExactGp;
using fbosim::surrogate::RffSurrogate;

namespace {
struct Setup {
  RandomFeatures f;
  std::vector<SourcePosterior> sources;
  std::vector<RffSurrogate> checks;  // the same sources as RffSurrogates (independent)
  ExactGp target;
  double y_max;
};

Setup make_setup(std::uint64_t seed) {
  RngStream rng(seed);
  const int d = 2, M = 40;
  Setup s{RandomFeatures::draw(d, M, 0.3, 1.0, rng), {}, {}, ExactGp(d, {0.3, 1.0, 0.01}), 0};
  for (int m = 0; m < 4; ++m) {
    const Eigen::MatrixXd Xs = rng.uniform_matrix(20, d);
    const Eigen::VectorXd ys = ensemble_test::bumps(Xs, 0.4 * m);
    const double lambda = 0.01 * (m + 1);
    s.sources.push_back(ensemble_test::source_from_data(s.f, Xs, ys, lambda));
    s.checks.emplace_back(s.f, lambda);
    s.checks.back().fit(Xs, ys);
  }
  const Eigen::MatrixXd X = rng.uniform_matrix(10, d);
  const Eigen::VectorXd y = ensemble_test::bumps(X, 0.1);
  s.target.fit(X, y);
  s.y_max = y.maxCoeff();
  return s;
}

// EI of the ensemble written out from RffSurrogate and ExactGp predictions.
double rgpe_by_hand(const Setup& s, const Eigen::VectorXd& w, const Eigen::VectorXd& x, Variant v) {
  double mean = 0, var = 0;
  for (int m = 0; m < 4; ++m) {
    const auto p = s.checks[m].predict(x.transpose());
    mean += w[m] * p.mean[0];
    var += w[m] * w[m] * p.variance[0];
  }
  const auto t = s.target.predict(x.transpose());
  mean += w[4] * t.mean[0];
  var += w[4] * w[4] * (t.variance[0] + (v == Variant::authors ? s.target.noise_var() : 0.0));
  return ensemble_test::ei(mean, var, s.y_max);
}
}  // namespace

TEST_CASE("RgpeScore: value by hand, gradient by central differences, batch = per point") {
  const Setup s = make_setup(601);
  RngStream rng(602);
  for (const Eigen::VectorXd& w :
       {Eigen::VectorXd((Eigen::VectorXd(5) << 0.3, 0.0, 0.2, 0.0, 0.5).finished()),
        Eigen::VectorXd((Eigen::VectorXd(5) << 0.0, 0.0, 0.0, 0.0, 1.0).finished()),
        Eigen::VectorXd((Eigen::VectorXd(5) << 0.25, 0.25, 0.25, 0.25, 0.0).finished())}) {
    for (Variant v : {Variant::authors, Variant::corrected}) {
      const RgpeScore score(s.f, s.sources, w, s.target, s.y_max, v);
      const Eigen::MatrixXd X = rng.uniform_matrix(12, 2);
      const Eigen::VectorXd batch = score.batch(X);
      for (int j = 0; j < 12; ++j) {
        const Eigen::VectorXd x = X.row(j).transpose();
        Eigen::VectorXd grad;
        const double val = score.value(x, &grad);
        CHECK(val == Approx(rgpe_by_hand(s, w, x, v)).epsilon(1e-8).margin(1e-12));
        CHECK(batch[j] == Approx(val).epsilon(1e-10).margin(1e-14));
        CHECK(score.value(x, nullptr) == val);
        const double h = 1e-6;
        for (int k = 0; k < 2; ++k) {
          Eigen::VectorXd up = x, down = x;
          up[k] += h;
          down[k] -= h;
          const double fd = (score.value(up, nullptr) - score.value(down, nullptr)) / (2 * h);
          CHECK(grad[k] == Approx(fd).epsilon(1e-5).margin(1e-8));
        }
      }
    }
  }
}

TEST_CASE("RgpeScore: the authors' variance adds w_t^2 noise_var, zero weights are ignored") {
  Setup s = make_setup(603);
  const Eigen::VectorXd w = (Eigen::VectorXd(5) << 0.4, 0.0, 0.0, 0.2, 0.4).finished();
  const RgpeScore a(s.f, s.sources, w, s.target, s.y_max, Variant::authors);
  const RgpeScore c(s.f, s.sources, w, s.target, s.y_max, Variant::corrected);
  CHECK(a.active_sources() == std::vector<int>{0, 3});
  RngStream rng(604);
  const Eigen::MatrixXd X = rng.uniform_matrix(6, 2);
  const auto pa = a.predict(X), pc = c.predict(X);
  CHECK((pa.mean - pc.mean).cwiseAbs().maxCoeff() == 0.0);
  CHECK((pa.variance - pc.variance).cwiseAbs().maxCoeff() ==
        Approx(0.16 * s.target.noise_var()).epsilon(1e-9));
  // Replacing the zero-weight sources changes nothing.
  std::vector<SourcePosterior> other = s.sources;
  const Eigen::MatrixXd Xo = rng.uniform_matrix(15, 2);
  other[1] = ensemble_test::source_from_data(s.f, Xo, rng.normal_vector(15), 0.5);
  other[2] = other[1];
  const RgpeScore b(s.f, other, w, s.target, s.y_max, Variant::authors);
  CHECK(b.batch(X) == a.batch(X));
  CHECK_THROWS_AS(RgpeScore(s.f, s.sources, w.head(4), s.target, s.y_max, Variant::authors),
                  std::invalid_argument);
  CHECK_THROWS_AS(RgpeScore(s.f, s.sources, -w, s.target, s.y_max, Variant::authors),
                  std::invalid_argument);
}

TEST_CASE("RgpeScore::score() plugs into ScoreMaximiser") {
  const Setup s = make_setup(605);
  const Eigen::VectorXd w = (Eigen::VectorXd(5) << 0.3, 0.0, 0.2, 0.0, 0.5).finished();
  const RgpeScore score(s.f, s.sources, w, s.target, s.y_max, Variant::authors);
  const fbosim::acq::ScoreMaximiser opt({200, 4, 20, 1e-6});
  RngStream rng(606);
  const auto r = opt.maximise(score.score(), fbosim::core::Box::unit(2), rng);
  CHECK(r.value == Approx(score.value(r.x, nullptr)).epsilon(1e-12));
  CHECK(((r.x.array() >= 0) && (r.x.array() <= 1)).all());
  // The same random points without the L-BFGS-B starts (the batch path) do no better.
  RngStream same(606);
  const auto random_only = fbosim::acq::ScoreMaximiser({200, 0, 20, 1e-6})
                               .maximise(score.score(), fbosim::core::Box::unit(2), same);
  CHECK(r.value >= random_only.value);
}
