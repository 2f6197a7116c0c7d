// Age weights (docs/TIME.md, "Age weights"): FedBuff's 1 / sqrt(1 + a) and FedAsync's
// (1 + a)^-alpha against std::pow, in (0, 1] at every age a release can have.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "sim/run/age_weight.hpp"
#include "sim/run/schedule_plan.hpp"

using namespace fbosim;
using config::AgeWeight;
using run::age_weight;

TEST_CASE("age weights: one, FedBuff's and FedAsync's, against hand values and std::pow") {
  CHECK(age_weight(AgeWeight::one, 0.5, 0) == 1.0);
  CHECK(age_weight(AgeWeight::one, 0.5, 7) == 1.0);
  CHECK(age_weight(AgeWeight::fedbuff, 0.5, 0) == 1.0);
  CHECK(age_weight(AgeWeight::fedbuff, 0.5, 3) == 0.5);  // 1 / sqrt(4)
  CHECK(age_weight(AgeWeight::fedasync, 0.5, 0) == 1.0);
  CHECK(age_weight(AgeWeight::fedasync, 0.5, 3) == Approx(0.5).epsilon(1e-15));   // 4^-0.5
  CHECK(age_weight(AgeWeight::fedasync, 2.0, 1) == Approx(0.25).epsilon(1e-15));  // 2^-2
  CHECK(age_weight(AgeWeight::fedasync, 1.0, 4) == Approx(0.2).epsilon(1e-15));   // 5^-1
  for (const int a : {1, 2, 10, 99, 12345, 999999})
    for (const double alpha : {1e-9, 0.3, 1.0, 10.0}) {
      INFO("age " << a << ", alpha " << alpha);
      const double w = age_weight(AgeWeight::fedasync, alpha, a);
      CHECK(w == Approx(std::pow(1.0 + a, -alpha)).epsilon(1e-14));
      CHECK(w > 0);
      CHECK(w <= 1);
      const double b = age_weight(AgeWeight::fedbuff, alpha, a);
      CHECK(b == Approx(1.0 / std::sqrt(1.0 + a)).epsilon(1e-15));
      CHECK(b > 0);
      CHECK(b < 1);
    }
  // The oldest message a run can hold keeps a positive weight.
  CHECK(age_weight(AgeWeight::fedasync, 10.0, static_cast<int>(run::kMaxReleases)) > 0);
  CHECK_THROWS_AS(age_weight(AgeWeight::fedbuff, 0.5, -1), std::invalid_argument);
  CHECK_THROWS_AS(age_weight(AgeWeight::fedasync, 0.0, 1), std::invalid_argument);
  CHECK_THROWS_AS(age_weight(AgeWeight::fedasync, 11.0, 1), std::invalid_argument);
}
