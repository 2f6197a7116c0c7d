#include "algorithms/rff/grid_argmax.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "algorithms/rff/fast_trig.hpp"
#include "core/simd_clones.hpp"

namespace fbosim::rff {

namespace {
constexpr int kLanes = 4;  // consecutive grid points per vector
// Points between exact cosines (a multiple of 2 kLanes). The recurrence's rounding errors add
// up to at most about k^2 eps / 2 after k steps (each is carried on with a factor
// |sin(k D) / sin D| <= k), k = kAnchor / kLanes: below 1e-11 for 512.
constexpr Eigen::Index kAnchor = 512;
using Vec = double __attribute__((vector_size(kLanes * sizeof(double))));

// One block of grid points j0, j0 + 1, ...: the exact cosines of feature i at j0 + l - kLanes
// (c[i * 2 kLanes + l]) and j0 + l (c[i * 2 kLanes + kLanes + l]), l < kLanes; 2 cos(D_i) with
// D_i = kLanes s_i h, the angle by which every lane advances per vector; omega; the block's
// accumulators of phi . omega and |c|^2, kLanes per vector (no alignment assumed).
struct Block {
  const double *c, *two_cos, *omega;
  int features;
  double *dot, *sq;
  Eigen::Index vectors;
};

[[gnu::always_inline]] inline void load(Vec& v, const double* p) {
  std::memcpy(&v, p, sizeof(Vec));
}

// Adds features [i, i + K) to the accumulators (K at a time: they are loaded and stored once
// per K features); every sum runs over i in order, whatever the vector width. The cosines of
// the next vector follow from cos(a + D) = 2 cos D cos a - cos(a - D), two operations a value;
// `now` and `old` trade roles each step so that no copies are needed.
template <int K>
[[gnu::always_inline]] inline void accumulate(const Block& b, int i) {
  Vec old[K], now[K], two_cos[K], omega[K];  // locals: stores to dot, sq cannot alias them
  for (int k = 0; k < K; ++k) {
    load(old[k], b.c + (i + k) * 2 * kLanes);
    load(now[k], b.c + (i + k) * 2 * kLanes + kLanes);
    two_cos[k] = b.two_cos[i + k] + Vec{};
    omega[k] = b.omega[i + k] + Vec{};
  }
  double* const __restrict dot_p = b.dot;
  double* const __restrict sq_p = b.sq;
  const bool first = i == 0;
  const auto add = [&](Eigen::Index v, Vec(&c)[K], Vec(&before)[K]) __attribute__((always_inline)) {
    Vec dot{}, sq{};
    if (!first) {
      load(dot, dot_p + v * kLanes);
      load(sq, sq_p + v * kLanes);
    }
    for (int k = 0; k < K; ++k) {
      dot += omega[k] * c[k];
      sq += c[k] * c[k];
      before[k] = two_cos[k] * c[k] - before[k];  // the cosines of the next vector
    }
    std::memcpy(dot_p + v * kLanes, &dot, sizeof(Vec));
    std::memcpy(sq_p + v * kLanes, &sq, sizeof(Vec));
  };
  Eigen::Index v = 0;
  for (; v + 2 <= b.vectors; v += 2) {
    add(v, now, old);      // old <- cosines of v + 1
    add(v + 1, old, now);  // now <- cosines of v + 2
  }
  if (v < b.vectors) add(v, now, old);
}

FBOSIM_SIMD_CLONES void accumulate_block(const Block& b) {
  int i = 0;
  for (; i + 4 <= b.features; i += 4) accumulate<4>(b, i);
  for (; i < b.features; ++i) accumulate<1>(b, i);
}

Eigen::Index first_max(const double* dot, const double* sq, Eigen::Index G) {
  Eigen::Index best = 0;
  double best_g = -INFINITY;
  for (Eigen::Index j = 0; j < G; ++j) {
    // phi(x_j) . omega up to the positive factor sqrt(signal_var) of the normalisation.
    const double g = dot[j] / std::sqrt(sq[j]);
    if (g > best_g) best = j, best_g = g;
  }
  return best;
}
}  // namespace

std::optional<UniformGrid> UniformGrid::of(const Eigen::MatrixXd& grid) {
  if (grid.cols() != 1 || grid.rows() < 3) return std::nullopt;
  const double h = grid(1, 0) - grid(0, 0);
  if (!(h > 0)) return std::nullopt;
  for (Eigen::Index j = 1; j < grid.rows(); ++j)
    if (std::abs(grid(j, 0) - grid(0, 0) - static_cast<double>(j) * h) > 1e-12) return std::nullopt;
  return UniformGrid{grid(0, 0), h, grid.rows()};
}

Eigen::Index grid_argmax(const RandomFeatures& features, const UniformGrid& grid,
                         const Eigen::VectorXd& omega) {
  const int M = features.size();
  const double* s = features.frequencies().data();
  const double* b = features.phases().data();
  const Eigen::Index vectors = (grid.size + kLanes - 1) / kLanes;
  // Not zeroed: the first features overwrite them.
  const auto dot = std::make_unique_for_overwrite<double[]>(vectors * kLanes);
  const auto sq = std::make_unique_for_overwrite<double[]>(vectors * kLanes);
  std::vector<double> angle(static_cast<std::size_t>(M) * 2 * kLanes), c(angle.size()),
      two_cos(static_cast<std::size_t>(M));
  for (int i = 0; i < M; ++i) angle[i] = kLanes * grid.h * s[i];
  fast_cos(angle.data(), two_cos.data(), M);
  for (double& t : two_cos) t *= 2;
  for (Eigen::Index j0 = 0; j0 < grid.size; j0 += kAnchor) {
    for (int i = 0; i < M; ++i)
      for (int l = 0; l < 2 * kLanes; ++l) {
        const double x = grid.x0 + static_cast<double>(j0 + l - kLanes) * grid.h;
        angle[static_cast<std::size_t>(i * 2 * kLanes + l)] = s[i] * x + b[i];
      }
    fast_cos(angle.data(), c.data(), M * 2 * kLanes);
    accumulate_block(Block{c.data(), two_cos.data(), omega.data(), M, dot.get() + j0, sq.get() + j0,
                           std::min(kAnchor / kLanes, vectors - j0 / kLanes)});
  }
  return first_max(dot.get(), sq.get(), grid.size);
}

Eigen::Index grid_argmax(const RandomFeatures& features, const Eigen::MatrixXd& grid,
                         const Eigen::VectorXd& omega) {
  if (const auto uniform = UniformGrid::of(grid)) return grid_argmax(features, *uniform, omega);
  Eigen::Index best = 0;
  features.values(grid, omega).maxCoeff(&best);
  return best;
}

}  // namespace fbosim::rff
