#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "core/fast_exp.hpp"
#include "core/rng.hpp"

using fbosim::core::fast_exp;

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

namespace {

// exp_lanes over an array, compiled for AVX2 and for the baseline (SSE2): the two builds the
// SIMD clones of fast_exp and its callers run.
template <typename Lanes>
void each_block(const double* a, double* e, std::size_t n, Lanes lanes) {
  for (std::size_t i = 0; i < n; i += 4) {
    fbosim::core::ExpVec v{};
    for (std::size_t k = 0; k < 4 && i + k < n; ++k) v[k] = a[i + k];
    lanes(v);
    for (std::size_t k = 0; k < 4 && i + k < n; ++k) e[i + k] = v[k];
  }
}
[[gnu::target("avx2")]] void exp_avx2(const double* a, double* e, std::size_t n) {
  each_block(a, e, n, [](fbosim::core::ExpVec& v) { fbosim::core::exp_lanes(v); });
}
void exp_baseline(const double* a, double* e, std::size_t n) {
  each_block(a, e, n, [](fbosim::core::ExpVec& v) { fbosim::core::exp_lanes(v); });
}

std::int64_t bits(double x) {
  std::int64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// Arguments from lo to hi: `count` equally spaced, each nudged by a few ulp (so that the
// spacing does not line up with the reduction's k ln 2 steps).
std::vector<double> dense(double lo, double hi, int count) {
  std::vector<double> a;
  for (int i = 0; i < count; ++i) {
    double x = lo + (hi - lo) * i / (count - 1);
    for (int k = 0; k < i % 7; ++k) x = std::nextafter(x, hi);
    a.push_back(x);
  }
  return a;
}

}  // namespace

TEST_CASE("fast_exp is within 2 ulp of the correctly rounded exp over its whole range") {
  // The reference: expl in x87 extended precision (64-bit significand), rounded to double.
  // Errors in ulp: the distance of the bit patterns (both positive and finite).
  for (const auto& [lo, hi] :
       {std::pair{-708.0, 709.0}, std::pair{-50.0, 0.0}, std::pair{-1.0, 1.0}}) {
    const std::vector<double> a = dense(lo, hi, 1000003);
    std::vector<double> e(a.size());
    fast_exp(a.data(), e.data(), static_cast<std::ptrdiff_t>(a.size()));
    std::int64_t worst = 0, worst_std = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const auto reference = static_cast<double>(std::exp(static_cast<long double>(a[i])));
      worst = std::max(worst, std::abs(bits(e[i]) - bits(reference)));
      worst_std = std::max(worst_std, std::abs(bits(e[i]) - bits(std::exp(a[i]))));
    }
    INFO("[" << lo << ", " << hi << "]: " << worst << " ulp from the rounded expl, " << worst_std
             << " from std::exp");
    CHECK(worst <= 2);
    CHECK(worst_std <= 2);
  }
}

TEST_CASE("fast_exp: the AVX2 and the baseline builds give the same bits") {
  std::vector<double> a = dense(-800.0, 800.0, 400001);
  const std::vector<double> near_zero = dense(-1e-3, 1e-3, 100001);
  a.insert(a.end(), near_zero.begin(), near_zero.end());
  for (double special :
       {0.0, -0.0, -708.0, -708.0000000001, 709.0, 709.0000000001,
        std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
        std::numeric_limits<double>::denorm_min(), std::nan("")})
    a.push_back(special);
  std::vector<double> dispatched(a.size()), baseline(a.size()), avx2(a.size());
  fast_exp(a.data(), dispatched.data(), static_cast<std::ptrdiff_t>(a.size()));
  exp_baseline(a.data(), baseline.data(), a.size());
  const auto same = [](const std::vector<double>& x, const std::vector<double>& y) {
    return std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
  };
  CHECK(same(dispatched, baseline));
  if (__builtin_cpu_supports("avx2")) {
    exp_avx2(a.data(), avx2.data(), a.size());
    CHECK(same(avx2, baseline));
  } else {
    WARN("no AVX2 on this CPU: only the baseline build was compared");
  }
}
