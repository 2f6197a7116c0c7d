#pragma once
// Vectorisable exp, the same bits on every x86-64 CPU (AVX2 and baseline clones, no FMA): for the
// SE kernel matrices of the marginal-likelihood fit (R&W eq. 5.8 needs n (n + 1) / 2 of them per
// evaluation) and the landmine SVMs' RBF kernels (datasets/landmine/rbf_kernels.hpp). libm's
// exp is called one element at a time, and glibc's differs by CPU: it picks an FMA build at run
// time where the CPU has FMA, which rounds 7e-4 of its results differently (7,033 of 10^7
// arguments in [-50, 0], against GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-AVX2). Cephes exp.c:
// x = k ln 2 + r with a two-part Cody-Waite reduction, exp(r) = 1 + 2 r P(r^2) / (Q(r^2) -
// r P(r^2)), then the exponent k added to the bits. At most 2 ulp from the correctly rounded
// value over [-708, 709] (tested; 4e-16 relative); 0 below -708 (where the true value is
// < 1e-307), infinity above 709, NaN for NaN.
#include <cstddef>
#include <cstdint>

namespace fbosim::core {

/// Four doubles, the width of the vector code (the baseline SIMD clone runs it as two SSE2
/// halves, with the same per-lane operations).
using ExpVec = double __attribute__((vector_size(4 * sizeof(double))));

namespace fast_exp_detail {
using VecI = std::int64_t __attribute__((vector_size(4 * sizeof(double))));
// Cephes exp.c coefficients (highest degree first).
inline constexpr double kP[] = {1.26177193074810590878e-4, 3.02994407707441961300e-2,
                                9.99999999999999999910e-1};
inline constexpr double kQ[] = {3.00198505138664455042e-6, 2.52448340349684104192e-3,
                                2.27265548208155028766e-1, 2.00000000000000000009e0};
inline constexpr double kLog2e = 1.4426950408889634073599;
inline constexpr double kLn2Hi = 6.93145751953125e-1;  // ln 2 = kLn2Hi + kLn2Lo, 13-bit kLn2Hi
inline constexpr double kLn2Lo = 1.42860682030941723212e-6;
inline constexpr double kMin = -708.0, kMax = 709.0;  // 2^k stays a normal number in range
inline constexpr double kShift = 0x1.8p52;  // adding it rounds to an integer in the low bits
}  // namespace fast_exp_detail

namespace fast_exp_detail {
// e = exp(x) for x in [kMin, kMax] (no NaN): the reduction and the Pade form.
[[gnu::always_inline]] inline void exp_in_range(const ExpVec& x, ExpVec& e) {
  const ExpVec shift = kShift + ExpVec{};
  const ExpVec t = x * kLog2e + shift;
  const VecI k = reinterpret_cast<VecI>(t) - reinterpret_cast<VecI>(shift);
  const ExpVec kd = t - shift;
  const ExpVec r = (x - kd * kLn2Hi) - kd * kLn2Lo;
  const ExpVec z = r * r;
  const ExpVec p = r * ((kP[0] * z + kP[1]) * z + kP[2]);
  const ExpVec q = ((kQ[0] * z + kQ[1]) * z + kQ[2]) * z + kQ[3];
  e = (1.0 + 2.0 * (p / (q - p))) * reinterpret_cast<ExpVec>((k + 1023) << 52);
}
}  // namespace fast_exp_detail

/// exp of each lane of v, in place; inline for vector code that has its arguments in registers.
/// Written with vector types (not a scalar loop for the compiler to vectorise: it keeps the range
/// selects as branches under -ftrapping-math).
[[gnu::always_inline]] inline void exp_lanes(ExpVec& v) {
  using namespace fast_exp_detail;
  const ExpVec a = v;
  const ExpVec lo = kMin + ExpVec{}, hi = kMax + ExpVec{};
  ExpVec x = a < lo ? lo : a;
  x = x > hi ? hi : x;  // NaN stays NaN (and is restored below)
  exp_in_range(x, v);
  v = a < lo ? ExpVec{} : v;
  v = a > hi ? __builtin_inf() + ExpVec{} : v;
  v = a == a ? v : a;
}

/// The same for lanes <= 0 (the SE kernel's exponents), a third fewer selects: the same value
/// there; NaN stays NaN (any payload); above 709 the result is not exp.
[[gnu::always_inline]] inline void exp_nonpositive_lanes(ExpVec& v) {
  using namespace fast_exp_detail;
  const ExpVec a = v;
  const ExpVec lo = kMin + ExpVec{};
  exp_in_range(a < lo ? lo : a, v);
  v = a < lo ? ExpVec{} : v;
}

/// e[i] = exp(a[i]) for i < n. The arrays may be the same but must not overlap otherwise.
void fast_exp(const double* a, double* e, std::ptrdiff_t n);

}  // namespace fbosim::core
