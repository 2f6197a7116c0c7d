#include "datasets/emnist/conv_kernels.hpp"

#include <cstring>

#include "datasets/emnist/cnn_vector.hpp"
#include "core/simd_clones.hpp"

namespace fbosim::datasets::cnn {

namespace {

constexpr int kFilter = kTaps * kTaps;

// z[c][j] = bias[c] + sum over (ci, ky, kx) of w[c][ci][ky][kx] * in[ci][y + ky][8 j + kx + lane]:
// output row y of CB channels (w: their block of pack_filters), XV vectors of eight columns. The
// input vectors of a tap are loaded once for the CB channels.
template <int XV, int CB>
[[gnu::always_inline]] inline void conv_row(const float* in, int cin, int plane, int stride, int y,
                                            const float* w, const float* bias, Vec8 (&z)[CB][XV]) {
  for (int c = 0; c < CB; ++c)
    for (int j = 0; j < XV; ++j) z[c][j] = bias ? splat(bias[c]) : Vec8{};
  for (int ci = 0; ci < cin; ++ci) {
    const float* wc = w + ci * kFilter * CB;
    // The five taps of a row unrolled, the rows a loop: with all 25 taps unrolled GCC
    // scheduled them accumulator by accumulator and spilled (25 % more instructions).
#pragma GCC unroll 1
    for (int ky = 0; ky < kTaps; ++ky) {
      const float* row = in + ci * plane + (y + ky) * stride;
#pragma GCC unroll 5
      for (int kx = 0; kx < kTaps; ++kx) {
        Vec8 x[XV];
        for (int j = 0; j < XV; ++j) x[j] = load8(row + kx + 8 * j);
        for (int c = 0; c < CB; ++c) {
          const float s = wc[(ky * kTaps + kx) * CB + c];
          for (int j = 0; j < XV; ++j) z[c][j] += s * x[j];
        }
      }
    }
  }
}

// ReLU and 2x2 max-pool of conv rows r0 (row 2 qy) and r1 (row 2 qy + 1), whose patches start
// at `origin` (= 2 qy * stride): pooled column k (of XV * 4) gets val[k] and arg[k]. The maximum
// is PyTorch's first in row-major order (strict comparisons: left before right, then the top
// pair before the bottom one); relu(max) = max(relu), and a maximum <= 0 passes no gradient.
template <int XV>
[[gnu::always_inline]] inline void relu_pool(const Vec8 (&r0)[XV], const Vec8 (&r1)[XV], int origin,
                                             int stride, float* val, PoolArg* arg) {
  static_assert(XV % 2 == 0);
  for (int j = 0; j < XV; j += 2) {
    const Vec8 e0 = __builtin_shufflevector(r0[j], r0[j + 1], 0, 2, 4, 6, 8, 10, 12, 14);
    const Vec8 o0 = __builtin_shufflevector(r0[j], r0[j + 1], 1, 3, 5, 7, 9, 11, 13, 15);
    const Vec8 e1 = __builtin_shufflevector(r1[j], r1[j + 1], 0, 2, 4, 6, 8, 10, 12, 14);
    const Vec8 o1 = __builtin_shufflevector(r1[j], r1[j + 1], 1, 3, 5, 7, 9, 11, 13, 15);
    const Mask8 right0 = o0 > e0, right1 = o1 > e1;
    const Vec8 top = right0 ? o0 : e0, bottom = right1 ? o1 : e1;
    const Mask8 down = bottom > top;
    const Vec8 m = down ? bottom : top;
    const Mask8 right = down ? right1 : right0;
    const Mask8 active = m > Vec8{};
    const Mask8 col = Mask8{0, 2, 4, 6, 8, 10, 12, 14} + (origin + 8 * j);
    const Mask8 off = col - right + (down & stride);  // a true mask is -1
    store8(val + 4 * j, active ? m : Vec8{});
    const Mask8 a = active ? off : Mask8{} - 1;
    std::memcpy(arg + 4 * j, &a, sizeof a);
  }
}

// Channels c0 .. c0 + CB - 1 of conv_relu_pool_*: the pooled rows go to out (channel planes
// out_plane apart, rows out_stride apart, from out_origin) and arg (side/2 x side/2 a channel).
template <int XV, int CB>
[[gnu::always_inline]] inline void conv_pool_block(const float* in, int cin, int plane, int stride,
                                                   const float* w, const float* b, int c0, int side,
                                                   float* out, int out_plane, int out_stride,
                                                   int out_origin, PoolArg* arg) {
  const int half = side / 2;
  const float* wb = w + c0 * cin * kFilter;
  for (int qy = 0; qy < half; ++qy) {
    Vec8 z[CB][XV], top[CB][XV];
    conv_row<XV, CB>(in, cin, plane, stride, 2 * qy, wb, b + c0, z);
    for (int c = 0; c < CB; ++c)
      for (int j = 0; j < XV; ++j) top[c][j] = z[c][j];
    conv_row<XV, CB>(in, cin, plane, stride, 2 * qy + 1, wb, b + c0, z);
    for (int c = 0; c < CB; ++c) {
      float val[XV * 4];
      PoolArg a[XV * 4];
      relu_pool<XV>(top[c], z[c], 2 * qy * stride, stride, val, a);
      std::memcpy(out + (c0 + c) * out_plane + out_origin + qy * out_stride, val,
                  sizeof(float) * static_cast<unsigned>(half));
      std::memcpy(arg + ((c0 + c) * half + qy) * half, a,
                  sizeof(PoolArg) * static_cast<unsigned>(half));
    }
  }
}

template <int XV, int CB>
[[gnu::always_inline]] inline void conv_pool(const float* in, int cin, int plane, int stride,
                                             const float* w, const float* b, int cout, int side,
                                             float* out, int out_plane, int out_stride,
                                             int out_origin, PoolArg* arg) {
  int c = 0;
  for (; c + CB <= cout; c += CB)
    conv_pool_block<XV, CB>(in, cin, plane, stride, w, b, c, side, out, out_plane, out_stride,
                            out_origin, arg);
  for (; c < cout; ++c)
    conv_pool_block<XV, 1>(in, cin, plane, stride, w, b, c, side, out, out_plane, out_stride,
                           out_origin, arg);
}

template <int CB>
[[gnu::always_inline]] inline void conv_14_block(const float* in, int cin, const float* w, int c0,
                                                 float* out) {
  for (int y = 0; y < 14; ++y) {
    Vec8 z[CB][2];
    conv_row<2, CB>(in, cin, kPlane2, kStride2, y, w + c0 * cin * kFilter, nullptr, z);
    for (int c = 0; c < CB; ++c) {
      float row[16];
      store8(row, z[c][0]);
      store8(row + 8, z[c][1]);
      std::memcpy(out + ((c0 + c) * 14 + y) * 14, row, 14 * sizeof(float));
    }
  }
}

}  // namespace

void pack_filters(const float* w, int cin, int cout, int block, float* out) {
  for (int c0 = 0; c0 < cout;) {
    const int nb = c0 + block <= cout ? block : 1;
    for (int ci = 0; ci < cin; ++ci)
      for (int t = 0; t < kFilter; ++t)
        for (int c = 0; c < nb; ++c) *out++ = w[((c0 + c) * cin + ci) * kFilter + t];
    c0 += nb;
  }
}

FBOSIM_SIMD_CLONES void conv_relu_pool_28(const float* in, const float* w, const float* b, int cout,
                                          float* out, PoolArg* arg) {
  conv_pool<4, kBlock1>(in, 1, kPlane1, kStride1, w, b, cout, 28, out, kPlane2, kStride2,
                        2 * kStride2 + 2, arg);
}

FBOSIM_SIMD_CLONES void conv_relu_pool_14(const float* in, int cin, const float* w, const float* b,
                                          int cout, float* out, PoolArg* arg) {
  conv_pool<2, kBlock2>(in, cin, kPlane2, kStride2, w, b, cout, 14, out, 49, 7, 0, arg);
}

FBOSIM_SIMD_CLONES void conv_14(const float* in, int cin, const float* w, int cout, float* out) {
  int c = 0;
  for (; c + kBlock2 <= cout; c += kBlock2) conv_14_block<kBlock2>(in, cin, w, c, out);
  for (; c < cout; ++c) conv_14_block<1>(in, cin, w, c, out);
}

static_assert(kGradRow == kLanes);

FBOSIM_SIMD_CLONES void conv_weight_grad(const float* in, int cin, int plane, int stride,
                                         const PoolArg* arg, const float* g, int cout, int nq,
                                         float* dw, float* db) {
  constexpr int kMaxPooled = 14 * 14;
  int at[kMaxPooled];
  float gv[kMaxPooled + kLanes];
  for (int c = 0; c < cout; ++c) {
    int n = 0;  // the active positions of channel c, in order (without branches: half are)
    for (int q = 0; q < nq; ++q) {
      at[n] = arg[c * nq + q];
      gv[n] = g[c * nq + q];
      n += at[n] >= 0;
    }
    Vec8 sum{};  // db: lane l sums the active gradients l, l + 8, ...; then hsum
    for (int k = n; k < n + kLanes; ++k) gv[k] = 0.0f;
    for (int i = 0; i < n; i += kLanes) sum += load8(gv + i);
    db[c] += hsum(sum);
    for (int ci = 0; ci < cin; ++ci) {
      float* d = dw + (c * cin + ci) * kTaps * kGradRow;
      const float* plane_in = in + ci * plane;
      Vec8 acc[kTaps];
      for (int ky = 0; ky < kTaps; ++ky) acc[ky] = load8(d + ky * kGradRow);
      for (int i = 0; i < n; ++i) {
        const float* p = plane_in + at[i];
        const float s = gv[i];
#pragma GCC unroll 5
        for (int ky = 0; ky < kTaps; ++ky) acc[ky] += s * load8(p + ky * stride);
      }
      for (int ky = 0; ky < kTaps; ++ky) store8(d + ky * kGradRow, acc[ky]);
    }
  }
}

}  // namespace fbosim::datasets::cnn
