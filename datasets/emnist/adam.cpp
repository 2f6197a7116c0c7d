#include "datasets/emnist/adam.hpp"

#include <cmath>
#include <stdexcept>

#include "core/simd_clones.hpp"

namespace fbosim::datasets::cnn {

namespace {

constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;

struct AdamStep {
  float l2, beta1, one_minus_beta1, beta2, one_minus_beta2, sqrt_bc2, eps, neg_step;
};

// Element-wise, so the compiler's vectors give each element the same operations in both clones
// (sqrt and division are exact IEEE operations; this file is built with -fno-math-errno, which
// lets sqrt be vectorised, and -ffp-contract=off).
FBOSIM_SIMD_CLONES void adam_update(float* p, const float* grad, float* m, float* v, std::size_t n,
                                    AdamStep s) {
  for (std::size_t i = 0; i < n; ++i) {
    const float g = grad[i] + s.l2 * p[i];
    m[i] = m[i] * s.beta1 + s.one_minus_beta1 * g;
    v[i] = v[i] * s.beta2 + s.one_minus_beta2 * g * g;
    const float denom = std::sqrt(v[i]) / s.sqrt_bc2 + s.eps;
    p[i] = p[i] + s.neg_step * (m[i] / denom);
  }
}

}  // namespace

Adam::Adam(std::size_t n, double l2) : m_(n, 0.0f), v_(n, 0.0f), l2_(l2) {
  if (!(l2 >= 0)) throw std::invalid_argument("Adam: the L2 weight must be >= 0");
}

void Adam::step(std::span<float> params, std::span<const float> grad, double lr) {
  if (params.size() != m_.size() || grad.size() != m_.size())
    throw std::invalid_argument(
        "Adam::step: parameter and gradient sizes differ from the optimiser's");
  ++t_;
  b1t_ *= kBeta1;
  b2t_ *= kBeta2;
  const AdamStep s{static_cast<float>(l2_),        static_cast<float>(kBeta1),
                   static_cast<float>(1 - kBeta1), static_cast<float>(kBeta2),
                   static_cast<float>(1 - kBeta2), static_cast<float>(std::sqrt(1 - b2t_)),
                   static_cast<float>(kEps),       static_cast<float>(-lr / (1 - b1t_))};
  adam_update(params.data(), grad.data(), m_.data(), v_.data(), m_.size(), s);
}

}  // namespace fbosim::datasets::cnn
