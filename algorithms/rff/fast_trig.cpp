#include "algorithms/rff/fast_trig.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/rff/trig_lanes.hpp"
#include "core/simd_clones.hpp"

namespace fbosim::rff {

namespace {
using lanes::kMaxArg;

bool in_range(const double* a, std::ptrdiff_t n) {
  double m = 0.0;
  for (std::ptrdiff_t i = 0; i < n; ++i)
    m = std::max(m, std::abs(a[i]));  // NaN maps to NaN on both paths
  return m <= kMaxArg;
}
}  // namespace

FBOSIM_SIMD_CLONES void fast_sincos(const double* a, double* s, double* c, std::ptrdiff_t n) {
  if (!in_range(a, n)) {
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      s[i] = std::sin(a[i]);
      c[i] = std::cos(a[i]);
    }
    return;
  }
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const lanes::SinCos<double> v = lanes::sincos(a[i]);
    s[i] = v.s;
    c[i] = v.c;
  }
}

FBOSIM_SIMD_CLONES void fast_cos(const double* a, double* c, std::ptrdiff_t n) {
  if (!in_range(a, n)) {
    for (std::ptrdiff_t i = 0; i < n; ++i) c[i] = std::cos(a[i]);
    return;
  }
  for (std::ptrdiff_t i = 0; i < n; ++i) c[i] = lanes::sincos(a[i]).c;
}

}  // namespace fbosim::rff
