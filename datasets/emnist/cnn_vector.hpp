#pragma once
// The vector type of the EMNIST CNN's kernels: eight floats, the width of AVX2. The kernels are
// compiled twice (core/simd_clones.hpp): the AVX2 clone runs a Vec8 as one register, the
// baseline clone as two SSE halves, with the same operation on each lane. Neither clone fuses
// a multiply and an add (no FMA; the kernel sources are also compiled with -ffp-contract=off),
// so every lane rounds the same way in both: the results are the same bits on every x86-64
// machine. Only lane-wise operations and the fixed tree of hsum() combine values.
#include <cstdint>
#include <cstring>

namespace fbosim::datasets::cnn {

inline constexpr int kLanes = 8;
using Vec8 = float __attribute__((vector_size(kLanes * sizeof(float))));
using Mask8 = std::int32_t __attribute__((vector_size(kLanes * sizeof(float))));

[[gnu::always_inline]] inline Vec8 load8(const float* p) {
  Vec8 v;
  std::memcpy(&v, p, sizeof v);  // unaligned
  return v;
}

[[gnu::always_inline]] inline void store8(float* p, Vec8 v) { std::memcpy(p, &v, sizeof v); }

[[gnu::always_inline]] inline Vec8 splat(float s) { return Vec8{s, s, s, s, s, s, s, s}; }

/// Sum of the eight lanes in a fixed order: ((0+4) + (2+6)) + ((1+5) + (3+7)).
[[gnu::always_inline]] inline float hsum(Vec8 v) {
  const Vec8 a = v + __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3);
  const Vec8 b = a + __builtin_shufflevector(a, a, 2, 3, 0, 1, 2, 3, 0, 1);
  return b[0] + b[1];
}

}  // namespace fbosim::datasets::cnn
