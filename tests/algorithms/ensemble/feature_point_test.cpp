#include <catch2/catch.hpp>

#include "algorithms/ensemble/feature_point.hpp"
#include "algorithms/rff/random_features.hpp"

using fbosim::core::RngStream;
using fbosim::ensemble::FeaturePoint;
using fbosim::rff::RandomFeatures;

TEST_CASE("FeaturePoint: phi(x) equals RandomFeatures::features, J equals central differences") {
  RngStream rng(101);
  for (int d : {1, 2, 3}) {
    const RandomFeatures f = RandomFeatures::draw(d, 60, 0.3, 1.7, rng);
    FeaturePoint p(f);
    for (int rep = 0; rep < 5; ++rep) {
      const Eigen::VectorXd x = rng.uniform_matrix(d, 1).col(0);
      p.evaluate(x, true);
      const Eigen::VectorXd phi = f.features(x.transpose()).row(0).transpose();
      CHECK((p.phi() - phi).cwiseAbs().maxCoeff() < 1e-14);
      CHECK(p.phi().squaredNorm() == Approx(1.7).epsilon(1e-13));
      const double h = 1e-6;
      for (int k = 0; k < d; ++k) {
        Eigen::VectorXd up = x, down = x;
        up[k] += h;
        down[k] -= h;
        const Eigen::VectorXd fd =
            (f.features(up.transpose()) - f.features(down.transpose())).row(0).transpose() /
            (2 * h);
        CHECK((p.jacobian().col(k) - fd).cwiseAbs().maxCoeff() < 1e-6);
      }
      // chain(a) = J^T a = d (phi . a) / dx, as RandomFeatures::value's gradient.
      const Eigen::VectorXd a = rng.normal_vector(60);
      Eigen::VectorXd g, ref;
      p.chain(a, g);
      f.value(x, a, &ref);
      CHECK((g - ref).cwiseAbs().maxCoeff() < 1e-12 * (1 + ref.cwiseAbs().maxCoeff()));
    }
  }
}

TEST_CASE("FeaturePoint rejects an x of the wrong dimension") {
  RngStream rng(102);
  const RandomFeatures f = RandomFeatures::draw(2, 10, 0.3, 1.0, rng);
  FeaturePoint p(f);
  CHECK_THROWS_AS(p.evaluate(Eigen::VectorXd::Zero(3), false), std::invalid_argument);
}
