#include "sim/run/age_weight.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "core/fast_exp.hpp"
#include "sim/timeline/portable_log.hpp"

namespace fbosim::run {

double age_weight(config::AgeWeight kind, double exponent, int age) {
  if (age < 0)
    throw std::invalid_argument(fmt::format("a message's age must be >= 0, got {}", age));
  const double one_plus = 1.0 + static_cast<double>(age);
  switch (kind) {
    case config::AgeWeight::one:
      return 1.0;
    case config::AgeWeight::fedbuff:
      return 1.0 / std::sqrt(one_plus);
    case config::AgeWeight::fedasync: {
      if (!(exponent > 0 && exponent <= 10))
        throw std::invalid_argument(
            fmt::format("schedule.age_exponent must be in (0, 10], got {}", exponent));
      const double a = -exponent * timeline::portable_log(one_plus);
      double w = 0;
      core::fast_exp(&a, &w, 1);
      // (1 + a)^-alpha <= 1; fast_exp is within 2 ulp, so keep it in (0, 1] exactly. Ages stay
      // below kMaxReleases = 10^6: w >= 10^-60 > 0.
      return std::min(w, 1.0);
    }
  }
  throw std::logic_error("age_weight: unknown schedule.age_weight");
}

}  // namespace fbosim::run
