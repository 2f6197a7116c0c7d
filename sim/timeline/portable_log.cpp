#include "sim/timeline/portable_log.hpp"

#include <bit>
#include <cstdint>
#include <limits>

namespace fbosim::timeline {

namespace {
constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 0x3fe62e42 fee00000
constexpr double kLn2Lo = 1.90821492927058770002e-10;  // 0x3dea39ef 35793c76
constexpr double kTwo54 = 1.80143985094819840000e+16;  // 2^54
constexpr double kLg1 = 6.666666666666735130e-01;
constexpr double kLg2 = 3.999999999940941908e-01;
constexpr double kLg3 = 2.857142874366239149e-01;
constexpr double kLg4 = 2.222219843214978396e-01;
constexpr double kLg5 = 1.818357216161805012e-01;
constexpr double kLg6 = 1.531383769920937332e-01;
constexpr double kLg7 = 1.479819860511658591e-01;

std::int32_t high_word(double x) {
  return static_cast<std::int32_t>(std::bit_cast<std::uint64_t>(x) >> 32);
}
std::uint32_t low_word(double x) {
  return static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(x));
}
double with_high_word(double x, std::int32_t hi) {
  const std::uint64_t bits =
      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(hi)) << 32) | low_word(x);
  return std::bit_cast<double>(bits);
}
}  // namespace

double portable_log(double x) {
  std::int32_t hx = high_word(x);
  const std::uint32_t lx = low_word(x);
  std::int32_t k = 0;
  if (hx < 0x00100000) {  // x < 2^-1022: zero, negative or subnormal
    if (((hx & 0x7fffffff) | static_cast<std::int32_t>(lx)) == 0)
      return -std::numeric_limits<double>::infinity();
    if (hx < 0) return std::numeric_limits<double>::quiet_NaN();
    k -= 54;
    x *= kTwo54;  // subnormal: scale up
    hx = high_word(x);
  }
  if (hx >= 0x7ff00000) return x + x;  // inf or NaN
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const std::int32_t i = (hx + 0x95f64) & 0x100000;
  x = with_high_word(x, hx | (i ^ 0x3ff00000));  // normalise x or x / 2
  k += i >> 20;
  const double f = x - 1.0;
  const double dk = k;
  if ((0x000fffff & (2 + hx)) < 3) {  // |f| < 2^-20
    if (f == 0.0) return k == 0 ? 0.0 : dk * kLn2Hi + dk * kLn2Lo;
    const double r = f * f * (0.5 - 0.33333333333333333 * f);
    return k == 0 ? f - r : dk * kLn2Hi - ((r - dk * kLn2Lo) - f);
  }
  const double s = f / (2.0 + f);
  const double z = s * s;
  const double w = z * z;
  const double t1 = w * (kLg2 + w * (kLg4 + w * kLg6));
  const double t2 = z * (kLg1 + w * (kLg3 + w * (kLg5 + w * kLg7)));
  const double r = t2 + t1;
  if (((hx - 0x6147a) | (0x6b851 - hx)) > 0) {
    const double hfsq = 0.5 * f * f;
    return k == 0 ? f - (hfsq - s * (hfsq + r))
                  : dk * kLn2Hi - ((hfsq - (s * (hfsq + r) + dk * kLn2Lo)) - f);
  }
  return k == 0 ? f - s * (f - r) : dk * kLn2Hi - ((s * (f - r) - dk * kLn2Lo) - f);
}

}  // namespace fbosim::timeline
