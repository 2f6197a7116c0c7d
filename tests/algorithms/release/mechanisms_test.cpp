// The release mechanisms against independent computations: the exponential mechanism's
// frequencies against the softmax written out, its privacy ratio, and Laplace draws against
// the Laplace distribution's closed forms (Monte Carlo with fixed seeds).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "algorithms/release/mechanisms.hpp"

using namespace fbosim;

TEST_CASE("exponential mechanism: frequencies of the softmax exp(eps q / (2 Delta)) / Z") {
  const Eigen::VectorXd q = (Eigen::VectorXd(5) << 0.1, 0.5, 0.45, -0.3, 0.2).finished();
  const double eps = 3, sens = 0.25;
  std::vector<double> w(5);
  double z = 0;
  for (int i = 0; i < 5; ++i) z += w[i] = std::exp(eps * q[i] / (2 * sens));
  const Eigen::VectorXd p = release::exponential_probabilities(q, eps, sens);
  for (int i = 0; i < 5; ++i) CHECK(p[i] == Approx(w[i] / z).epsilon(1e-13));
  core::RngStream rng(42);
  const int n = 200000;
  std::vector<int> counts(5, 0);
  for (int t = 0; t < n; ++t) ++counts[release::exponential_mechanism(q, eps, sens, rng)];
  for (int i = 0; i < 5; ++i) {
    const double pi = w[i] / z;
    CHECK(std::abs(counts[i] / double(n) - pi) < 4 * std::sqrt(pi * (1 - pi) / n));
  }
  // Large scores do not overflow (the maximum is subtracted in log space).
  const Eigen::VectorXd big = q * 1e6;
  CHECK(release::exponential_probabilities(big, eps, sens).allFinite());
  CHECK_THROWS_AS(release::exponential_probabilities(q, 0, sens), std::invalid_argument);
  CHECK_THROWS_AS(release::exponential_probabilities(q, eps, 0), std::invalid_argument);
}

TEST_CASE(
    "exponential mechanism: neighbouring scores (|q - q'| <= Delta) change no probability "
    "by more than e^eps") {
  core::RngStream rng(9);
  const double eps = 0.7, sens = 2;
  for (int trial = 0; trial < 50; ++trial) {
    const Eigen::VectorXd q = 3 * rng.normal_vector(20);
    Eigen::VectorXd q2 = q;
    for (int i = 0; i < 20; ++i) q2[i] += sens * (2 * rng.uniform() - 1);
    const Eigen::VectorXd p = release::exponential_probabilities(q, eps, sens);
    const Eigen::VectorXd p2 = release::exponential_probabilities(q2, eps, sens);
    CHECK((p.array() / p2.array()).maxCoeff() <= std::exp(eps) * (1 + 1e-12));
  }
}

TEST_CASE("Laplace noise: mean |X| = b, P(|X| > t b) = e^-t, symmetric") {
  core::RngStream rng(77);
  const double b = 1.7;
  const int n = 200000;
  double abs_sum = 0, sum = 0;
  int beyond = 0, positive = 0;
  for (int t = 0; t < n; ++t) {
    const double x = release::laplace_noise(b, rng);
    abs_sum += std::abs(x);
    sum += x;
    beyond += std::abs(x) > 2 * b;
    positive += x > 0;
  }
  CHECK(std::abs(abs_sum / n - b) < 4 * b / std::sqrt(double(n)));  // sd of |X| is b
  CHECK(std::abs(sum / n) < 4 * b * std::sqrt(2.0 / n));
  const double p = std::exp(-2.0);
  CHECK(std::abs(beyond / double(n) - p) < 4 * std::sqrt(p * (1 - p) / n));
  CHECK(std::abs(positive / double(n) - 0.5) < 4 * std::sqrt(0.25 / n));
  CHECK_THROWS_AS(release::laplace_noise(0, rng), std::invalid_argument);
}
