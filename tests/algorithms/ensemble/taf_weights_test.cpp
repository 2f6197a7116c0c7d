#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/ensemble/taf_weights.hpp"
#include "ensemble_fixture.hpp"

using fbosim::core::RngStream;
using fbosim::ensemble::discordant_pairs;
using fbosim::ensemble::SourcePosterior;
using fbosim::ensemble::taf_distance;
using fbosim::ensemble::taf_weights;
using fbosim::ensemble::Variant;
using fbosim::rff::RandomFeatures;

namespace {
// The authors' meta-features written out: over ordered pairs (j, k), j != k, entry c when
// "j above k", else 0; dist = Euclidean norm of the difference.
double authors_distance(const Eigen::VectorXd& mean, const Eigen::VectorXd& y) {
  const int n = static_cast<int>(y.size());
  const double c = 1.0 / (n * (n - 1.0));
  std::vector<double> src, tgt;
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < n; ++k)
      if (j != k) {
        src.push_back(mean[j] > mean[k] ? c : 0.0);
        tgt.push_back(y[j] > y[k] ? c : 0.0);
      }
  double s = 0;
  for (std::size_t i = 0; i < src.size(); ++i) s += (tgt[i] - src[i]) * (tgt[i] - src[i]);
  return std::sqrt(s);
}
// The TAF paper's dissimilarity: the fraction of discordant ordered pairs.
double fraction_discordant(const Eigen::VectorXd& mean, const Eigen::VectorXd& y) {
  const int n = static_cast<int>(y.size());
  int bad = 0;
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < n; ++k)
      if (j != k && ((mean[j] > mean[k]) != (y[j] > y[k]))) ++bad;
  return bad / (n * (n - 1.0));
}
double kernel(double d, double rho) { return d <= rho ? 0.75 * (1 - d * d / (rho * rho)) : 0.0; }
}  // namespace

TEST_CASE("taf_weights equal an explicit O(n^2) computation, both variants") {
  RngStream rng(501);
  const RandomFeatures f = RandomFeatures::draw(2, 40, 0.3, 1.0, rng);
  std::vector<SourcePosterior> sources;
  for (int m = 0; m < 5; ++m) {
    const Eigen::MatrixXd Xs = rng.uniform_matrix(30, 2);
    const Eigen::VectorXd ys =
        m < 2 ? ensemble_test::bumps(Xs, 0.3 * m) : Eigen::VectorXd(rng.normal_vector(30));
    sources.push_back(ensemble_test::source_from_data(f, Xs, ys, 1e-3));
  }
  for (int n : {2, 3, 8, 25}) {
    const Eigen::MatrixXd X = rng.uniform_matrix(n, 2);
    Eigen::VectorXd y = ensemble_test::bumps(X, 0.0);
    if (n > 3) y[1] = y[2];  // a tie in y
    const Eigen::MatrixXd Phi = f.features(X);
    for (double rho : {0.5, 0.2}) {
      const Eigen::VectorXd wa = taf_weights(sources, f, X, y, Variant::authors, rho);
      const Eigen::VectorXd wc = taf_weights(sources, f, X, y, Variant::corrected, rho);
      CHECK(wa[5] == 0.75);
      CHECK(wc[5] == 0.75);
      for (int m = 0; m < 5; ++m) {
        const Eigen::VectorXd mean = Phi * sources[m].nu();
        CHECK(wa[m] == Approx(kernel(authors_distance(mean, y), rho)).epsilon(1e-13));
        CHECK(wc[m] == Approx(kernel(fraction_discordant(mean, y), rho)).epsilon(1e-13));
        CHECK(taf_distance(mean, y, Variant::authors) ==
              Approx(authors_distance(mean, y)).epsilon(1e-13));
      }
    }
  }
}

TEST_CASE("authors' distance c sqrt(D) <= 1/sqrt(n(n-1)): no cut-off at rho = 0.5 for n >= 3") {
  RngStream rng(502);
  for (int n : {3, 4, 10, 53}) {
    const double bound = 1.0 / std::sqrt(n * (n - 1.0));
    for (int rep = 0; rep < 20; ++rep) {
      const Eigen::VectorXd y = rng.normal_vector(n), mean = rng.normal_vector(n);
      const double D = static_cast<double>(discordant_pairs(mean, y));
      const double d = taf_distance(mean, y, Variant::authors);
      CHECK(d == Approx(std::sqrt(D) / (n * (n - 1.0))).epsilon(1e-14));
      CHECK(d <= bound * (1 + 1e-15));
      const double w = fbosim::ensemble::epanechnikov(d, 0.5);
      CHECK(w >= 0.25 - 1e-15);
      CHECK(w <= 0.75);
    }
    // The worst case, a reversed ranking, attains the bound.
    const Eigen::VectorXd up = Eigen::VectorXd::LinSpaced(n, 0, 1);
    CHECK(taf_distance(-up, up, Variant::authors) == Approx(bound).epsilon(1e-14));
    CHECK(taf_distance(-up, up, Variant::corrected) == 1.0);
    CHECK(taf_distance(up, up, Variant::corrected) == 0.0);
  }
  CHECK(fbosim::ensemble::epanechnikov(0.6, 0.5) == 0.0);
  CHECK_THROWS_AS(fbosim::ensemble::epanechnikov(0.1, 0.0), std::invalid_argument);
}

TEST_CASE("taf_weights with n < 2: every source weight is 0") {
  RngStream rng(503);
  const RandomFeatures f = RandomFeatures::draw(1, 10, 0.3, 1.0, rng);
  const Eigen::MatrixXd Xs = rng.uniform_matrix(5, 1);
  const std::vector<SourcePosterior> sources{
      ensemble_test::source_from_data(f, Xs, rng.normal_vector(5), 0.1)};
  const Eigen::VectorXd w = taf_weights(sources, f, Eigen::MatrixXd::Zero(1, 1),
                                        Eigen::VectorXd::Ones(1), Variant::authors);
  CHECK(w == Eigen::Vector2d(0.0, 0.75));
}
