#pragma once
// The branch-free sine/cosine kernel behind fast_trig, written once for a scalar double and for
// GCC vector types (4 lanes): each lane sees exactly the scalar operations, so the scalar loops
// of fast_trig.cpp and the 4-lane kernels of random_features.cpp give the same bits, in the
// AVX2 and in the baseline clones (no FMA contraction in either).
// a = k pi/2 + r, |r| <= pi/4 (3-part Cody-Waite reduction); then sin/cos of a are +-sin/cos
// of r picked by k mod 4 (Cephes sin.c polynomials), on the bit patterns.
#include <bit>
#include <cstdint>

// The functions below return vectors by value but are always inlined: no call, so no ABI to warn
// about when the baseline clone (no AVX) uses them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

namespace fbosim::rff::lanes {

constexpr double kMaxArg = 1e6;  // k = round(2a/pi) < 2^27 keeps k * kPio2A exact

using Vec = double __attribute__((vector_size(32)));
using VecU = std::uint64_t __attribute__((vector_size(32)));

template <class T>
struct Bits;
template <>
struct Bits<double> {
  using type = std::uint64_t;
};
template <>
struct Bits<Vec> {
  using type = VecU;
};

template <class T>
[[gnu::always_inline]] inline typename Bits<T>::type to_bits(const T& v) {
  if constexpr (sizeof(T) == sizeof(double))
    return std::bit_cast<std::uint64_t>(v);
  else
    return reinterpret_cast<VecU>(v);
}

template <class T>
[[gnu::always_inline]] inline T from_bits(const typename Bits<T>::type& v) {
  if constexpr (sizeof(T) == sizeof(double))
    return std::bit_cast<double>(v);
  else
    return reinterpret_cast<Vec>(v);
}

// Cephes sin.c minimax coefficients on [0, pi/4], highest degree first:
// sin r = r + r z P(z), cos r = 1 - z/2 + z^2 Q(z), z = r^2.
constexpr double kSinCoef[] = {1.58962301576546568060e-10, -2.50507477628578072866e-8,
                               2.75573136213857245213e-6,  -1.98412698295895385996e-4,
                               8.33333333332211858878e-3,  -1.66666666666666307295e-1};
constexpr double kCosCoef[] = {-1.13585365213876817300e-11, 2.08757008419747316778e-9,
                               -2.75573141792967388112e-7,  2.48015872888517045348e-5,
                               -1.38888888888730564116e-3,  4.16666666666665929218e-2};

template <class T>
[[gnu::always_inline]] inline T horner(const double (&coef)[6], const T& z) {
  T p = coef[0] + T{};
  for (int i = 1; i < 6; ++i) p = p * z + coef[i];
  return p;
}

template <class T>
struct SinCos {
  T s, c;
};

// sin and cos of a, for |a| <= kMaxArg.
template <class T>
[[gnu::always_inline]] inline SinCos<T> sincos(const T& a) {
  using U = typename Bits<T>::type;
  constexpr double kTwoOverPi = 0.63661977236758134308;
  constexpr double kShift = 0x1.8p52;  // adding it rounds to an integer held in the low bits
  constexpr double kPio2A = 1.57079625129699707031;  // pi/2 split in three (Cephes sin.c)
  constexpr double kPio2B = 7.54978941586159635336e-8;
  constexpr double kPio2C = 5.39030285815811905290e-15;
  const T t = a * kTwoOverPi + kShift;
  const U q = to_bits(t);
  const T k = t - kShift;
  const T r = ((a - k * kPio2A) - k * kPio2B) - k * kPio2C;
  const T z = r * r;
  const T ps = r + r * z * horner(kSinCoef, z);
  const T pc = 1.0 - 0.5 * z + z * z * horner(kCosCoef, z);
  const U bs = to_bits(ps);
  const U bc = to_bits(pc);
  const U one = U{} + 1, two = U{} + 2;
  const U swap = -(q & one);  // odd k: sin and cos trade places
  // sin is negated for k mod 4 in {2, 3}, cos for k mod 4 in {1, 2}: flip the sign bit.
  const U s = ((bs & ~swap) | (bc & swap)) ^ ((q & two) << 62);
  const U c = ((bc & ~swap) | (bs & swap)) ^ (((q + one) & two) << 62);
  return {from_bits<T>(s), from_bits<T>(c)};
}

// Taylor coefficients (-1)^k / (2k)! of cos r = sum_k (-1)^k r^2k / (2k)!, k = 10 down to 0.
constexpr double kCosTaylor[] = {4.110317623312165e-19,
                                 -1.5619206968586225e-16,
                                 4.779477332387385e-14,
                                 -1.1470745597729725e-11,
                                 2.08767569878681e-09,
                                 -2.755731922398589e-07,
                                 2.48015873015873e-05,
                                 -0.001388888888888889,
                                 0.041666666666666664,
                                 -0.5,
                                 1.0};

// cos a alone, for |a| <= kMaxArg: a = k pi + r, |r| <= pi/2 (the three parts of pi/2 above,
// doubled, so k * kPiA stays exact), cos a = (-1)^k cos r with cos r summed to r^20 (the first
// term left out is below 2e-17 on |r| <= pi/2). One polynomial and a sign flip instead of
// sincos's two polynomials and selections: a third fewer operations where only the cosine is
// wanted (the random points' scores). Absolute error a few 1e-16 (relative accuracy is lost near
// the zeros of cos, which nothing here needs).
template <class T>
[[gnu::always_inline]] inline T cos_only(const T& a) {
  using U = typename Bits<T>::type;
  constexpr double kOneOverPi = 0.318309886183790671538;
  constexpr double kShift = 0x1.8p52;
  constexpr double kPiA = 2 * 1.57079625129699707031;
  constexpr double kPiB = 2 * 7.54978941586159635336e-8;
  constexpr double kPiC = 2 * 5.39030285815811905290e-15;
  const T t = a * kOneOverPi + kShift;
  const U q = to_bits(t);
  const T k = t - kShift;
  const T r = ((a - k * kPiA) - k * kPiB) - k * kPiC;
  const T z = r * r;
  T p = kCosTaylor[0] + T{};
  for (int i = 1; i < 11; ++i) p = p * z + kCosTaylor[i];
  const U one = U{} + 1;
  return from_bits<T>(to_bits(p) ^ ((q & one) << 63));  // odd k: cos a = -cos r
}

}  // namespace fbosim::rff::lanes

#pragma GCC diagnostic pop
