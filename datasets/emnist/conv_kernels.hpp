#pragma once
// Direct-convolution kernels of the EMNIST CNN (datasets/emnist/small_cnn.hpp): 5x5 filters with
// "same" zero padding, each followed by ReLU and a 2x2 max-pool (DP-FTS-DE Sec. 5's CNN), on
// the two sizes the network has: 28x28 (layer 1) and 14x14 (layer 2).
//
// Layout: a channel is a plane of rows of `stride` floats, holding the side x side map with two
// zero rows and columns around it (the padding), so that the map's pixel (y, x) is at
// (y + 2) * stride + x + 2 and the 5x5 patch of output pixel (y, x) starts at y * stride + x.
// Output rows are computed as vectors of eight x positions (28 -> 4 vectors, 14 -> 2; the lanes
// past the side are computed and dropped), which fits any channel count.
//
// Order of summation (the same for any vector width and thread count): each output lane sums
// its bias, then input channel by input channel, kernel row ky, column kx, ascending; the weight
// gradients sum over the pooled positions in row-major order (conv_weight_grad). Every
// accumulation is a separate multiply and add (no FMA).
namespace fbosim::datasets::cnn {

inline constexpr int kTaps = 5;      // 5x5 filters
inline constexpr int kStride1 = 40;  // layer 1 planes: 28 + 4 columns, and room to read past
inline constexpr int kPlane1 = 32 * kStride1;  // 28 + 4 rows
inline constexpr int kStride2 = 24;  // layer 2 planes: 14 + 4 columns, and room to read past
inline constexpr int kPlane2 = 18 * kStride2;  // 14 + 4 rows
inline constexpr int kGradRow = 8;             // floats a filter row takes in a weight gradient

/// Output channels of a filter block: the kernels compute kBlock1 (layer 1) or kBlock2 (layer 2,
/// conv_14) output channels at once, reading their weights of one tap side by side.
inline constexpr int kBlock1 = 2, kBlock2 = 4;

/// Filters w (cout x cin x 25, PyTorch's layout) in a kernel's order: blocks of `block` output
/// channels, then single ones, each as [ci][tap][channel of the block]. out: cout * cin * 25.
void pack_filters(const float* w, int cin, int cout, int block, float* out);

/// Where a pooled value came from: the patch origin y * stride + x of the conv output pixel
/// that held the maximum (the first in row-major order among ties, as PyTorch's max_pool2d),
/// or -1 when the pooled value is 0 (the maximum was <= 0: ReLU passes no gradient).
using PoolArg = int;

/// Layer 1: conv (1 -> cout channels) of the 28x28 image `in` (one kPlane1 plane), bias, ReLU,
/// 2x2 max-pool. w: pack_filters(PyTorch's [cout][1][5][5], 1, cout, kBlock1), b: cout. Channel c's
/// pooled 14x14 map goes to out + c * kPlane2 in the padded layout of layer 2 (the border is not
/// written); arg: cout x 14 x 14.
void conv_relu_pool_28(const float* in, const float* w, const float* b, int cout, float* out,
                       PoolArg* arg);

/// Layer 2: conv (cin -> cout) of the 14x14 planes `in` (cin kPlane2 planes), bias, ReLU, 2x2
/// max-pool. w: pack_filters(cout x cin x 25, cin, cout, kBlock2), b: cout. The 7x7 maps go to out,
/// flattened as PyTorch's flatten(1) does (c * 49 + y * 7 + x); arg: cout x 7 x 7.
void conv_relu_pool_14(const float* in, int cin, const float* w, const float* b, int cout,
                       float* out, PoolArg* arg);

/// Convolution (cin -> cout, no bias) of the 14x14 planes `in` (kPlane2 planes): the gradient of
/// layer 2's input when `in` holds its output's gradient and w its filters transposed and
/// flipped. w: pack_filters(cout x cin x 25, cin, cout, kBlock2). out: cout x 14 x 14.
void conv_14(const float* in, int cin, const float* w, int cout, float* out);

/// Weight and bias gradients of a conv layer from the gradients g of its pooled outputs
/// (cout x nq, nq <= 196 pooled positions per channel) and their PoolArg: for each output
/// channel c and pooled position q with arg >= 0,
///   db[c] += g,   dw[c][ci][ky][kx] += g * in[ci * plane + arg + ky * stride + kx]
/// (the other three positions of the pool window have zero gradient). dw: cout x cin x 5 rows of
/// kGradRow floats (the last 3 are scratch), summed over q in order; db: the active g of a
/// channel summed in eight lanes (the k-th in lane k mod 8), then across them by hsum(). Both
/// are accumulated into.
void conv_weight_grad(const float* in, int cin, int plane, int stride, const PoolArg* arg,
                      const float* g, int cout, int nq, float* dw, float* db);

}  // namespace fbosim::datasets::cnn
