#include "algorithms/rff/fast_trig.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "sim/core/simd_clones.hpp"

namespace fbosim::rff {

namespace {
constexpr double kMaxArg = 1e6;  // k = round(2a/pi) < 2^27 keeps k * kPio2A exact

// Cephes sin.c minimax coefficients on [0, pi/4], highest degree first:
// sin r = r + r z P(z), cos r = 1 - z/2 + z^2 Q(z), z = r^2.
constexpr double kSinCoef[] = {1.58962301576546568060e-10, -2.50507477628578072866e-8,
                               2.75573136213857245213e-6,  -1.98412698295895385996e-4,
                               8.33333333332211858878e-3,  -1.66666666666666307295e-1};
constexpr double kCosCoef[] = {-1.13585365213876817300e-11, 2.08757008419747316778e-9,
                               -2.75573141792967388112e-7,  2.48015872888517045348e-5,
                               -1.38888888888730564116e-3,  4.16666666666665929218e-2};

inline double horner(const double (&coef)[6], double z) {
  double p = coef[0];
  for (int i = 1; i < 6; ++i) p = p * z + coef[i];
  return p;
}

struct SinCos {
  double s, c;
};

// a = k pi/2 + r, |r| <= pi/4; then sin/cos of a are +-sin/cos of r picked by k mod 4. The
// selection works on the bit patterns so the loops below stay branch-free.
inline SinCos sincos_one(double a) {
  constexpr double kTwoOverPi = 0.63661977236758134308;
  constexpr double kShift = 0x1.8p52;  // adding it rounds to an integer held in the low bits
  constexpr double kPio2A = 1.57079625129699707031;  // pi/2 split in three (Cephes sin.c)
  constexpr double kPio2B = 7.54978941586159635336e-8;
  constexpr double kPio2C = 5.39030285815811905290e-15;
  const double t = a * kTwoOverPi + kShift;
  const std::uint64_t q = std::bit_cast<std::uint64_t>(t);
  const double k = t - kShift;
  const double r = ((a - k * kPio2A) - k * kPio2B) - k * kPio2C;
  const double z = r * r;
  const double ps = r + r * z * horner(kSinCoef, z);
  const double pc = 1.0 - 0.5 * z + z * z * horner(kCosCoef, z);
  const std::uint64_t bs = std::bit_cast<std::uint64_t>(ps);
  const std::uint64_t bc = std::bit_cast<std::uint64_t>(pc);
  const std::uint64_t swap = -(q & 1);  // odd k: sin and cos trade places
  // sin is negated for k mod 4 in {2, 3}, cos for k mod 4 in {1, 2}: flip the sign bit.
  const std::uint64_t s = ((bs & ~swap) | (bc & swap)) ^ ((q & 2) << 62);
  const std::uint64_t c = ((bc & ~swap) | (bs & swap)) ^ (((q + 1) & 2) << 62);
  return {std::bit_cast<double>(s), std::bit_cast<double>(c)};
}

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
    const SinCos v = sincos_one(a[i]);
    s[i] = v.s;
    c[i] = v.c;
  }
}

FBOSIM_SIMD_CLONES void fast_cos(const double* a, double* c, std::ptrdiff_t n) {
  if (!in_range(a, n)) {
    for (std::ptrdiff_t i = 0; i < n; ++i) c[i] = std::cos(a[i]);
    return;
  }
  for (std::ptrdiff_t i = 0; i < n; ++i) c[i] = sincos_one(a[i]).c;
}

}  // namespace fbosim::rff
