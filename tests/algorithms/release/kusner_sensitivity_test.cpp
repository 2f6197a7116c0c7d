// Kusner et al. 2015's reconstructed constants (spec dp-bo.md) written out by hand, the spec's
// magnitude check (sec. 4.2), and the information-gain bound against brute force.
#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <functional>
#include <numbers>
#include <vector>

#include "algorithms/release/kusner_sensitivity.hpp"

using namespace fbosim::release;

TEST_CASE("Kusner's beta, sigma_1 and c at the spec's magnitude check (sec. 4.2)") {
  // |Lambda| = 100, T = 50, delta = 0.01, k_V = 0.99: beta_{T+1} = 37.3, 2 sqrt(beta) = 12.2,
  // sigma_1 = 0.141, c_f = 0.64, c = 12.9.
  KusnerSetting s;
  s.candidates = 100;
  s.observations = 50;
  s.delta = 0.01;
  s.sigma1 = sigma1_of(0.99);
  const double pi2 = std::numbers::pi * std::numbers::pi;
  const double beta51 = 2 * std::log(100 * 51.0 * 51.0 * pi2 / (2 * 0.01));
  CHECK(kusner_beta(100, 51, 0.01) == Approx(beta51).epsilon(1e-14));
  CHECK(beta51 == Approx(37.3).epsilon(2e-3));
  CHECK(s.sigma1 == Approx(std::sqrt(0.02)).epsilon(1e-14));
  const double cf = std::sqrt(0.02) * std::sqrt(2 * std::log(3 * 100 / 0.01));
  CHECK(cf == Approx(0.64).epsilon(5e-3));
  CHECK(hyperparameter_sensitivity(s) == Approx(2 * std::sqrt(beta51) + cf).epsilon(1e-14));
  CHECK(hyperparameter_sensitivity(s) == Approx(12.9).epsilon(5e-3));
  // The exponential mechanism's largest weight ratio over 4 prior standard deviations at
  // epsilon = 1: e^{4 / (2 c)} = 1.17 -- nearly uniform, as the spec warns.
  CHECK(std::exp(4 / (2 * hyperparameter_sensitivity(s))) == Approx(1.17).epsilon(5e-3));
}

TEST_CASE("Kusner's c' (noisy) and Delta_5 (noise-free) written out") {
  KusnerSetting s;
  s.candidates = 64;
  s.observations = 31;
  s.delta = 1e-3;
  s.sigma1 = 0.2;
  s.noise_var = 1e-3;
  const double gamma = 12.5;
  const double pi2 = std::numbers::pi * std::numbers::pi;
  const double beta31 = 2 * std::log(64 * 31.0 * 31.0 * pi2 / (2e-3));
  const double c1 = 8 / std::log(1 + 1 / 1e-3);
  const double cf = 0.2 * std::sqrt(2 * std::log(3 * 64 / 1e-3));
  const double a = std::sqrt(1e-3) * std::sqrt(2 * std::log(3 * 31 / 1e-3));
  CHECK(noise_bound(s) == Approx(a).epsilon(1e-14));
  CHECK(value_sensitivity(s, gamma) ==
        Approx(std::sqrt(c1 * beta31 * gamma / 31) + cf + 2 * a).epsilon(1e-13));
  const double d5 = 0.5 * std::exp(-0.3 * 31 / std::pow(std::log(31.0), 2 / 4.0)) + cf;
  CHECK(noise_free_value_sensitivity(s, 2, 0.5, 0.3) == Approx(d5).epsilon(1e-13));
  s.noise_var = 0;
  CHECK_THROWS_WITH(value_sensitivity(s, gamma), Catch::Matchers::Contains("noise-free"));
  CHECK_THROWS_AS(sigma1_of(1.5), std::invalid_argument);
}

TEST_CASE("the greedy information-gain bound brackets gamma_T found by brute force") {
  // Five 1-D candidates, T = 3: gamma_T = max over multisets A of 1/2 log det(I + K_A / s2).
  Eigen::MatrixXd C(5, 1);
  C << 0.0, 0.1, 0.35, 0.7, 1.0;
  const double l = 0.3, s2 = 0.05;
  double best = 0;
  for (int a = 0; a < 5; ++a)
    for (int b = a; b < 5; ++b)
      for (int c = b; c < 5; ++c) {
        const int idx[3] = {a, b, c};
        Eigen::Matrix3d K;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            const double d = C(idx[i], 0) - C(idx[j], 0);
            K(i, j) = std::exp(-d * d / (2 * l * l));
          }
        const double g = 0.5 * std::log((Eigen::Matrix3d::Identity() + K / s2).determinant());
        best = std::max(best, g);
      }
  const double bound = information_gain_bound(C, l, s2, 3);
  CHECK(bound >= best);                                 // an upper bound on gamma_T
  CHECK(bound * (1 - std::exp(-1.0)) <= best + 1e-12);  // greedy never beats the optimum
  CHECK(trivial_information_gain_bound(s2, 3) == Approx(1.5 * std::log(1 + 1 / s2)).epsilon(1e-14));
  CHECK(trivial_information_gain_bound(s2, 3) >= best);
}
