#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "algorithms/gp/fast_exp.hpp"
#include "sim/core/rng.hpp"

using fbosim::gp::fast_exp;

TEST_CASE("fast_exp agrees with std::exp to a few 1e-16 relative on the whole range") {
  fbosim::core::RngStream rng(1);
  for (double range : {1e-3, 1.0, 30.0, 700.0}) {
    const int n = 20003;  // not a multiple of the SIMD width
    std::vector<double> a(n), e(n);
    for (int i = 0; i < n; ++i) a[i] = rng.uniform(-range, range);
    fast_exp(a.data(), e.data(), n);
    double err = 0.0;
    for (int i = 0; i < n; ++i) err = std::max(err, std::abs(e[i] / std::exp(a[i]) - 1.0));
    CHECK(err < 4e-16);
  }
}

TEST_CASE("fast_exp: exact points, limits, NaN and in-place use") {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> a{0.0,    -0.0, 1.0,   -1.0, -708.0, 709.0,
                        -708.5, -1e6, 710.0, inf,  -inf,   std::nan("")};
  fast_exp(a.data(), a.data(), static_cast<std::ptrdiff_t>(a.size()));
  CHECK(a[0] == 1.0);
  CHECK(a[1] == 1.0);
  CHECK(a[2] == Approx(std::exp(1.0)).epsilon(1e-15));
  CHECK(a[3] == Approx(std::exp(-1.0)).epsilon(1e-15));
  CHECK(a[4] == Approx(std::exp(-708.0)).epsilon(1e-15));
  CHECK(a[5] == Approx(std::exp(709.0)).epsilon(1e-15));
  CHECK(a[6] == 0.0);  // below the range: 0 (the true value is < 1e-307)
  CHECK(a[7] == 0.0);
  CHECK(a[8] == inf);
  CHECK(a[9] == inf);
  CHECK(a[10] == 0.0);
  CHECK(std::isnan(a[11]));
}
