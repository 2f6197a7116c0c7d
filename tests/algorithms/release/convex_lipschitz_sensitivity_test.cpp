// Kusner et al.'s Theorem 7 sensitivity [reconstructed] (convex_lipschitz_sensitivity.hpp),
// against values worked by hand, and the certificates it refuses.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "algorithms/release/convex_lipschitz_sensitivity.hpp"

using namespace fbosim;

namespace {

core::ConvexLipschitzScore landmine_like() {
  core::ConvexLipschitzScore s;
  s.lambda_min = 0.5;
  s.lambda_max = 8;
  s.loss_gradient_bound = 1;
  s.score_lipschitz = 0.25;
  s.score_range = 1;
  s.gradient_tolerance = 1e-9;
  s.validation_size = 200;
  return s;
}

}  // namespace

TEST_CASE("Kusner's Theorem 7: Delta = min(r, L (G (1/lmin - 1/lmax) + 2 tau / lmin) + r / m)") {
  // By hand: G (1/0.5 - 1/8) = 2 - 0.125 = 1.875; 2 tau / lmin = 2e-9 / 0.5 = 4e-9;
  // L * (1.875 + 4e-9) = 0.25 * 1.875000004 = 0.468750001; r / m = 1 / 200 = 0.005;
  // Delta = 0.473750001 (< r = 1).
  core::ConvexLipschitzScore s = landmine_like();
  CHECK(release::convex_lipschitz_sensitivity(s) == Approx(0.473750001).epsilon(1e-14));
  // A single lambda (lmin = lmax) and an exact minimiser: only the validation term, 0.8 / 10.
  s.lambda_min = s.lambda_max = 3;
  s.gradient_tolerance = 0;
  s.score_range = 0.8;
  s.validation_size = 10;
  CHECK(release::convex_lipschitz_sensitivity(s) == Approx(0.08).epsilon(1e-15));
  // G = 2, L = 0.5, lambda in [0.25, 1], tau = 1e-6, m = 50, r = 1:
  // 0.5 (2 (4 - 1) + 2e-6 / 0.25) + 1/50 = 0.5 * 6.000008 + 0.02 = 3.020004 > r: Delta = r = 1.
  s = landmine_like();
  s.loss_gradient_bound = 2;
  s.score_lipschitz = 0.5;
  s.lambda_min = 0.25;
  s.lambda_max = 1;
  s.gradient_tolerance = 1e-6;
  s.validation_size = 50;
  CHECK(release::convex_lipschitz_sensitivity(s) == 1);
  s.score_range = 4;  // the same without the clamp: 3.020004 + (4 - 1) / 50 = 3.080004
  CHECK(release::convex_lipschitz_sensitivity(s) == Approx(3.080004).epsilon(1e-14));
  // The paper's remark: the first term grows as 1 / lambda_min (a tenth of lambda_min: ten
  // times the models' distance, before the clamp).
  s = landmine_like();
  s.score_range = 100;
  const double a = release::convex_lipschitz_sensitivity(s) - 100.0 / 200;
  s.lambda_min /= 10;
  s.lambda_max = std::numeric_limits<double>::max();
  const double b = release::convex_lipschitz_sensitivity(s) - 100.0 / 200;
  CHECK(b == Approx(0.25 * (20 + 2e-9 / 0.05)).epsilon(1e-12));
  CHECK(b > 9 * a);
}

TEST_CASE("Kusner's Theorem 7: certificates that bound nothing are refused, naming the field") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const auto refused = [](core::ConvexLipschitzScore s, const char* field) {
    INFO(field);
    CHECK_THROWS_WITH(release::convex_lipschitz_sensitivity(s), Catch::Matchers::Contains(field));
  };
  core::ConvexLipschitzScore s = landmine_like();
  for (const double v : {0.0, -1.0, nan, inf}) {
    s = landmine_like();
    s.lambda_min = v;
    refused(s, "lambda_min");
  }
  s = landmine_like();
  s.lambda_max = 0.4;  // below lambda_min
  refused(s, "lambda_max");
  s = landmine_like();
  s.loss_gradient_bound = -1;
  refused(s, "loss_gradient_bound");
  s = landmine_like();
  s.score_lipschitz = nan;
  refused(s, "score_lipschitz");
  s = landmine_like();
  s.score_range = 0;
  refused(s, "score_range");
  s = landmine_like();
  s.gradient_tolerance = inf;
  refused(s, "gradient_tolerance");
  s = landmine_like();
  s.validation_size = 0;
  refused(s, "validation_size");
}
