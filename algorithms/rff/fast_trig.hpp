#pragma once
// Vectorisable sin/cos for the feature maps. Eigen 3.4 has no SIMD cos for double and libm's
// is called one element at a time; RFF evaluation is dominated by cosines (1000 x M per
// maximisation, App. B.2.6), so this branch-free kernel lets the compiler use SIMD lanes.
// Absolute error is a few 1e-16 (Cephes polynomials on [-pi/4, pi/4], 3-part Cody-Waite
// reduction); arrays holding any |a_i| > 1e6 are handed to std::sin/std::cos instead.
#include <cstddef>

namespace fbosim::rff {

/// s[i] = sin(a[i]), c[i] = cos(a[i]) for i < n. The three arrays must not overlap.
void fast_sincos(const double* a, double* s, double* c, std::ptrdiff_t n);
/// c[i] = cos(a[i]) for i < n. The arrays must not overlap.
void fast_cos(const double* a, double* c, std::ptrdiff_t n);

}  // namespace fbosim::rff
