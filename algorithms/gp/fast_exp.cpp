#include "algorithms/gp/fast_exp.hpp"

#include <cstdint>
#include <cstring>

#include "sim/core/simd_clones.hpp"

namespace fbosim::gp {

namespace {
// Cephes exp.c coefficients (highest degree first).
constexpr double kP[] = {1.26177193074810590878e-4, 3.02994407707441961300e-2,
                         9.99999999999999999910e-1};
constexpr double kQ[] = {3.00198505138664455042e-6, 2.52448340349684104192e-3,
                         2.27265548208155028766e-1, 2.00000000000000000009e0};
constexpr double kLog2e = 1.4426950408889634073599;
constexpr double kLn2Hi = 6.93145751953125e-1;  // ln 2 = kLn2Hi + kLn2Lo, kLn2Hi has 13 bits
constexpr double kLn2Lo = 1.42860682030941723212e-6;
constexpr double kMin = -708.0, kMax = 709.0;  // 2^k stays a normal number for k in range
constexpr double kShift = 0x1.8p52;            // adding it rounds to an integer in the low bits

constexpr int kLanes = 4;
using Vec = double __attribute__((vector_size(kLanes * sizeof(double))));
using VecI = std::int64_t __attribute__((vector_size(kLanes * sizeof(double))));

// exp of each lane of v, in place. Written with vector types (not a scalar loop for the compiler to
// vectorise: it keeps the range selects as branches under -ftrapping-math); the baseline clone runs
// each Vec as two SSE2 halves, with the same per-lane operations.
[[gnu::always_inline]] inline void exp_lanes(Vec& v) {
  const Vec a = v;
  const Vec lo = kMin + Vec{}, hi = kMax + Vec{}, shift = kShift + Vec{};
  Vec x = a < lo ? lo : a;
  x = x > hi ? hi : x;  // NaN stays NaN (and is restored below)
  const Vec t = x * kLog2e + shift;
  const VecI k = reinterpret_cast<VecI>(t) - reinterpret_cast<VecI>(shift);
  const Vec kd = t - shift;
  const Vec r = (x - kd * kLn2Hi) - kd * kLn2Lo;
  const Vec z = r * r;
  const Vec p = r * ((kP[0] * z + kP[1]) * z + kP[2]);
  const Vec q = ((kQ[0] * z + kQ[1]) * z + kQ[2]) * z + kQ[3];
  const Vec e = 1.0 + 2.0 * (p / (q - p));
  v = e * reinterpret_cast<Vec>((k + 1023) << 52);
  v = a < lo ? Vec{} : v;
  v = a > hi ? __builtin_inf() + Vec{} : v;
  v = a == a ? v : a;
}
}  // namespace

FBOSIM_SIMD_CLONES void fast_exp(const double* a, double* e, std::ptrdiff_t n) {
  std::ptrdiff_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    Vec v;
    std::memcpy(&v, a + i, sizeof(Vec));
    exp_lanes(v);
    std::memcpy(e + i, &v, sizeof(Vec));
  }
  if (i < n) {  // the last n - i < kLanes elements, the other lanes 0
    Vec v{};
    const auto bytes = static_cast<std::size_t>(n - i) * sizeof(double);
    std::memcpy(&v, a + i, bytes);
    exp_lanes(v);
    std::memcpy(e + i, &v, bytes);
  }
}

}  // namespace fbosim::gp
