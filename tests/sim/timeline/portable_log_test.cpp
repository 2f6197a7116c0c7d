#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>

#include "core/rng.hpp"
#include "sim/timeline/portable_log.hpp"

using fbosim::timeline::portable_log;

namespace {
// |a - r| in units of the last place of r (r, the reference, rounded to double).
double ulps(double a, long double r) {
  const double rd = static_cast<double>(r);
  const double ulp = std::nextafter(std::fabs(rd), INFINITY) - std::fabs(rd);
  return static_cast<double>(std::fabs(static_cast<long double>(a) - r)) / ulp;
}
}  // namespace

TEST_CASE("portable_log: within 1 ulp of x87 logl (64-bit mantissa) over every binade") {
  fbosim::core::RngStream rng(12345);
  int agree = 0, n = 0;
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    // Random bit patterns of positive finite doubles (every exponent, subnormals too), and
    // arguments near 1 (the |f| < 2^-20 branch and the polynomial's hardest range).
    double x = 0;
    if (i % 2) {
      x = std::bit_cast<double>(rng.engine()() >> 1);
      if (!std::isfinite(x) || x == 0) continue;
    } else {
      x = 1.0 + (rng.uniform() - 0.5) * std::ldexp(1.0, -static_cast<int>(rng.uniform_int(40)));
    }
    const long double r = std::log(static_cast<long double>(x));
    const double l = portable_log(x);
    worst = std::max(worst, ulps(l, r));
    agree += l == static_cast<double>(r);
    ++n;
  }
  CHECK(worst < 1.0);
  CHECK(agree > 0.99 * n);  // correctly rounded almost always
}

TEST_CASE("portable_log: known values and the special cases") {
  CHECK(portable_log(1.0) == 0.0);
  CHECK(portable_log(2.0) == std::numbers::ln2);
  CHECK(portable_log(10.0) == std::numbers::ln10);
  CHECK(portable_log(std::numbers::e) == 1.0);
  CHECK(portable_log(std::ldexp(1.0, -1074)) == Approx(-1074 * std::numbers::ln2).epsilon(1e-15));
  CHECK(portable_log(0.0) == -std::numeric_limits<double>::infinity());
  CHECK(std::isnan(portable_log(-1.0)));
  CHECK(std::isnan(portable_log(std::numeric_limits<double>::quiet_NaN())));
  CHECK(portable_log(std::numeric_limits<double>::infinity()) ==
        std::numeric_limits<double>::infinity());
}
