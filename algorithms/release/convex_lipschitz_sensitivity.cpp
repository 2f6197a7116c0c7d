#include "algorithms/release/convex_lipschitz_sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::release {

namespace {

void require(bool ok, const char* field, double value, const char* what) {
  if (!ok)
    throw std::invalid_argument(
        fmt::format("Kusner et al.'s Assumption 2: {} must be {}, got {}", field, what, value));
}

}  // namespace

void check_convex_lipschitz_score(const core::ConvexLipschitzScore& s) {
  require(s.lambda_min > 0 && std::isfinite(s.lambda_min), "lambda_min", s.lambda_min,
          "> 0 (the sensitivity grows as 1 / lambda_min)");
  require(s.lambda_max >= s.lambda_min && std::isfinite(s.lambda_max), "lambda_max", s.lambda_max,
          ">= lambda_min and finite");
  require(s.loss_gradient_bound >= 0 && std::isfinite(s.loss_gradient_bound), "loss_gradient_bound",
          s.loss_gradient_bound, ">= 0 and finite");
  require(s.score_lipschitz >= 0 && std::isfinite(s.score_lipschitz), "score_lipschitz",
          s.score_lipschitz, ">= 0 and finite");
  require(s.score_range > 0 && std::isfinite(s.score_range), "score_range", s.score_range,
          "> 0 and finite");
  require(s.gradient_tolerance >= 0 && std::isfinite(s.gradient_tolerance), "gradient_tolerance",
          s.gradient_tolerance, ">= 0 and finite");
  require(s.validation_size >= 1, "validation_size", static_cast<double>(s.validation_size),
          ">= 1");
}

double convex_lipschitz_sensitivity(const core::ConvexLipschitzScore& s) {
  check_convex_lipschitz_score(s);
  // Steps 3-4: the largest distance between two scored models of the range.
  const double models = s.loss_gradient_bound * (1 / s.lambda_min - 1 / s.lambda_max) +
                        2 * s.gradient_tolerance / s.lambda_min;
  // Steps 1-2 and 5.
  return std::min(s.score_range, s.score_lipschitz * models +
                                     s.score_range / static_cast<double>(s.validation_size));
}

}  // namespace fbosim::release
