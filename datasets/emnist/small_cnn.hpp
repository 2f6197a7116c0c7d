#pragma once
// The CNN of DP-FTS-DE's EMNIST experiment (Dai, Low, Jaillet, NeurIPS 2021, Sec. 5 and App.
// B.2.1: each agent tunes the learning rate, its decay and the L2 weight of "a convolutional
// neural network" trained on its writer's digits; the architecture is not given [choice]):
//   conv 5x5 (1 -> conv1, same padding), ReLU, 2x2 max-pool,
//   conv 5x5 (conv1 -> conv2, same padding), ReLU, 2x2 max-pool,
//   dense (conv2 * 7 * 7 -> hidden), ReLU, dense (hidden -> 10), softmax cross-entropy.
// Float32, the forward pass and the gradient of one example at a time (kernels in
// conv_kernels.hpp and dense_kernels.hpp): every sum has one fixed order, so that the results
// are the same bits on every x86-64 machine, whatever its vector width, and on any thread.
//
// The backward pass uses that a 2x2 max-pool passes each gradient to one of its four inputs:
// the convolutions' weight gradients sum over the pooled positions only (a quarter of a dense
// pass), and layer 2's input gradient is a convolution of its sparse output gradient.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "datasets/emnist/conv_kernels.hpp"
#include "core/rng.hpp"

namespace fbosim::datasets::cnn {

class SmallCnn {
 public:
  static constexpr int kSide = 28, kPixels = kSide * kSide, kClasses = 10;

  /// One parameter tensor in the flat parameter vector, in PyTorch's order and layout
  /// (conv1.weight [conv1][1][5][5], conv1.bias, conv2.weight [conv2][conv1][5][5], conv2.bias,
  /// fc1.weight [hidden][conv2 * 49], fc1.bias, fc2.weight [10][hidden], fc2.bias).
  struct Tensor {
    std::string name;
    std::size_t offset, size;
    int fan_in;  ///< inputs of one unit (PyTorch's init bound is 1/sqrt(fan_in))
  };

  /// Throws std::invalid_argument when check_size() does.
  SmallCnn(int conv1, int conv2, int hidden);

  /// Throws std::invalid_argument, naming the sizes, unless conv1 and conv2 are in [1, 10000],
  /// hidden in [1, 100000] and the network has at most 2^27 parameters (512 MiB of floats).
  static void check_size(int conv1, int conv2, int hidden);

  const std::vector<Tensor>& tensors() const { return tensors_; }
  std::size_t parameter_count() const { return count_; }

  /// PyTorch's default initialisation: every weight and bias uniform(+-1/sqrt(fan_in)), drawn
  /// from rng tensor by tensor in order (as doubles, rounded to float).
  std::vector<float> initial_parameters(core::RngStream& rng) const;

  /// The parameters of the following calls (parameter_count() floats).
  void set_parameters(std::span<const float> p);

  /// The logits (kClasses floats) of one 28x28 image (row-major, kPixels floats).
  void logits(const float* image, float* z);

  /// grad = the gradient of the mean cross-entropy over the n examples (images[i]: kPixels
  /// floats, labels[i] in 0..9), parameter_count() floats in the layout of tensors().
  void gradient(const float* const* images, const int* labels, int n, std::span<float> grad);

  /// The fraction of the n images (n x kPixels floats) whose first largest logit is the label.
  double accuracy(const float* images, const int* labels, int n);

 private:
  void forward(const float* image);
  void backward(int label, float scale);
  void clear_gradient();
  void unpack_gradient(std::span<float> grad) const;

  int c1_, c2_, hidden_, hp_, k3_;  // hp_: hidden rounded up to 8; k3_ = conv2 * 49
  std::vector<Tensor> tensors_;
  std::size_t count_ = 0;
  // Parameters as the kernels read them: the canonical vector; the filters packed
  // (pack_filters), layer 2's also transposed and flipped for its input gradient; the dense
  // layers transposed and padded to vectors.
  std::vector<float> p_, w1p_, w2p_, w2flip_, w2flip_p_, w3t_, b3_, w4t_, b4_;
  // Gradient accumulators in the kernels' layouts.
  std::vector<float> dw1_, db1_, dw2_, db2_, dw3t_, db3_, dw4t_, db4_;
  // One example's activations and gradients.
  std::vector<float> in1_, in2_, x3_, h_, z_, dz_, dh_, dx3_, g2_, din_;
  std::vector<PoolArg> arg1_, arg2_;
};

}  // namespace fbosim::datasets::cnn
