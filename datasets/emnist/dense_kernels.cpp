#include "datasets/emnist/dense_kernels.hpp"

#include "datasets/emnist/cnn_vector.hpp"
#include "core/simd_clones.hpp"

namespace fbosim::datasets::cnn {

namespace {

// Outputs j0 .. j0 + 8 NV - 1 of dense_forward, accumulated in registers.
template <int NV>
[[gnu::always_inline]] inline void forward_block(const float* x, int k, const float* wt,
                                                 const float* b, int width, bool relu, int j0,
                                                 float* y) {
  Vec8 acc[NV];
  for (int v = 0; v < NV; ++v) acc[v] = load8(b + j0 + kLanes * v);
  for (int i = 0; i < k; ++i) {
    const float s = x[i];
    const float* row = wt + static_cast<long>(i) * width + j0;
    for (int v = 0; v < NV; ++v) acc[v] += s * load8(row + kLanes * v);
  }
  for (int v = 0; v < NV; ++v)
    store8(y + j0 + kLanes * v, relu ? (acc[v] > Vec8{} ? acc[v] : Vec8{}) : acc[v]);
}

}  // namespace

FBOSIM_SIMD_CLONES void dense_forward(const float* x, int k, const float* wt, const float* b,
                                      int width, bool relu, float* y) {
  int j = 0;
  for (; j + 4 * kLanes <= width; j += 4 * kLanes) forward_block<4>(x, k, wt, b, width, relu, j, y);
  for (; j < width; j += kLanes) forward_block<1>(x, k, wt, b, width, relu, j, y);
}

FBOSIM_SIMD_CLONES void dense_backward(const float* x, int k, const float* dy, int width,
                                       const float* wt, float* dwt, float* db, float* dx) {
  for (int j = 0; j < width; j += kLanes) store8(db + j, load8(db + j) + load8(dy + j));
  for (int i = 0; i < k; ++i) {
    const float s = x[i];
    const long row = static_cast<long>(i) * width;
    Vec8 dot{};
    for (int j = 0; j < width; j += kLanes) {
      const Vec8 g = load8(dy + j);
      store8(dwt + row + j, load8(dwt + row + j) + s * g);
      if (dx) dot = j == 0 ? load8(wt + row) * g : dot + load8(wt + row + j) * g;
    }
    if (dx) dx[i] = hsum(dot);
  }
}

}  // namespace fbosim::datasets::cnn
