#include "core/fast_exp.hpp"

#include <cstring>

#include "core/simd_clones.hpp"

namespace fbosim::core {

namespace {
constexpr int kLanes = 4;
}  // namespace

FBOSIM_SIMD_CLONES void fast_exp(const double* a, double* e, std::ptrdiff_t n) {
  std::ptrdiff_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    ExpVec v;
    std::memcpy(&v, a + i, sizeof(ExpVec));
    exp_lanes(v);
    std::memcpy(e + i, &v, sizeof(ExpVec));
  }
  if (i < n) {  // the last n - i < kLanes elements, the other lanes 0
    ExpVec v{};
    const auto bytes = static_cast<std::size_t>(n - i) * sizeof(double);
    std::memcpy(&v, a + i, bytes);
    exp_lanes(v);
    std::memcpy(e + i, &v, bytes);
  }
}

}  // namespace fbosim::core
