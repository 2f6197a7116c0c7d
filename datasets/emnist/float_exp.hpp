#pragma once
// exp for the softmax of the EMNIST CNN: the same bits on every machine (libm's exp may pick
// another code path on a CPU with FMA). Cephes expf.c: x = k ln 2 + r with a two-part
// Cody-Waite reduction, exp(r) by its degree-7 polynomial, 2^k put in the exponent bits.
// Relative error within 1.4 ulp of float on [-87, 0] (tests/datasets/emnist).
#include <cmath>
#include <cstdint>
#include <cstring>

namespace fbosim::datasets::cnn {

/// exp(x) for x <= 0 (the softmax's z - max z); 0 below -87 (exp < 1.7e-38), NaN for NaN.
inline float exp_nonpositive(float x) {
  if (!(x >= -87.0f)) return x != x ? x : 0.0f;
  const float k = std::floor(x * 1.44269504088896341f + 0.5f);  // round(x / ln 2), in [-126, 0]
  float r = x - k * 0.693359375f;                               // ln 2 = 0.693359375
  r = r - k * -2.12194440e-4f;                                  //      - 2.12194440e-4
  const float p = (((((1.9875691500e-4f * r + 1.3981999507e-3f) * r + 8.3334519073e-3f) * r +
                     4.1665795894e-2f) *
                        r +
                    1.6666665459e-1f) *
                       r +
                   5.0000001201e-1f) *
                      (r * r) +
                  r + 1.0f;
  const std::int32_t bits = (static_cast<std::int32_t>(k) + 127) << 23;  // 2^k
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

}  // namespace fbosim::datasets::cnn
