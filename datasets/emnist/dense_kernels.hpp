#pragma once
// Dense-layer kernels of the EMNIST CNN (datasets/emnist/small_cnn.hpp), for one example.
// A layer y = W x + b (W: width x k) is stored transposed, wt: k rows of `width` floats, width a
// multiple of 8 (the units past the layer's own are zero weights), so that the outputs are
// vectors: y += x[i] * wt[i] for i = 0 .. k - 1, in that order, a multiply and an add per lane.
namespace fbosim::datasets::cnn {

/// y = b + W x (relu: max(., 0)); x: k floats; wt: k x width; b, y: width floats.
void dense_forward(const float* x, int k, const float* wt, const float* b, int width, bool relu,
                   float* y);

/// Backward of y = W x + b for one example with output gradient dy (width floats):
///   dwt[i][j] += x[i] * dy[j],  db[j] += dy[j],  dx[i] = sum_j wt[i][j] dy[j] (dx may be null;
/// the sum over j goes by vectors of eight in order, then across the lanes by hsum()).
void dense_backward(const float* x, int k, const float* dy, int width, const float* wt, float* dwt,
                    float* db, float* dx);

}  // namespace fbosim::datasets::cnn
