#include "datasets/emnist/small_cnn.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "datasets/emnist/dense_kernels.hpp"
#include "datasets/emnist/float_exp.hpp"

namespace fbosim::datasets::cnn {

namespace {

constexpr int kFilter = kTaps * kTaps;
constexpr int kOut = 16;  // the 10 logits padded to two vectors
// The largest network taken (4 bytes each, and a few copies: gradient, Adam's moments).
constexpr std::size_t kMaxParameters = std::size_t{1} << 27;

std::size_t size(int n) { return static_cast<std::size_t>(n); }

}  // namespace

void SmallCnn::check_size(int conv1, int conv2, int hidden) {
  if (conv1 < 1 || conv2 < 1 || hidden < 1 || conv1 > 10000 || conv2 > 10000 || hidden > 100000)
    throw std::invalid_argument(
        fmt::format("channels must be in [1, 10000] and units in [1, 100000], got {}/{}/{}", conv1,
                    conv2, hidden));
  const std::size_t n = size(conv1) * kFilter + size(conv1) + size(conv2) * size(conv1) * kFilter +
                        size(conv2) + size(hidden) * size(conv2) * 49 + size(hidden) +
                        size(kClasses) * size(hidden) + size(kClasses);
  if (n > kMaxParameters)
    throw std::invalid_argument(fmt::format(
        "a CNN of {}/{}/{} channels and units has {} parameters; at most {} are supported", conv1,
        conv2, hidden, n, kMaxParameters));
}

SmallCnn::SmallCnn(int conv1, int conv2, int hidden)
    : c1_(conv1), c2_(conv2), hidden_(hidden), hp_((hidden + 7) / 8 * 8), k3_(conv2 * 49) {
  check_size(conv1, conv2, hidden);
  const auto add = [this](const char* name, std::size_t n, int fan_in) {
    tensors_.push_back({name, count_, n, fan_in});
    count_ += n;
  };
  add("conv1.weight", size(c1_) * kFilter, kFilter);
  add("conv1.bias", size(c1_), kFilter);
  add("conv2.weight", size(c2_) * size(c1_) * kFilter, c1_ * kFilter);
  add("conv2.bias", size(c2_), c1_ * kFilter);
  add("fc1.weight", size(hidden_) * size(k3_), k3_);
  add("fc1.bias", size(hidden_), k3_);
  add("fc2.weight", size(kClasses) * size(hidden_), hidden_);
  add("fc2.bias", size(kClasses), hidden_);
  w1p_.resize(size(c1_) * kFilter);
  w2p_.resize(size(c1_) * size(c2_) * kFilter);
  w2flip_.resize(w2p_.size());
  w2flip_p_.resize(w2p_.size());
  w3t_.assign(size(k3_) * size(hp_), 0.0f);
  b3_.assign(size(hp_), 0.0f);
  w4t_.assign(size(hp_) * kOut, 0.0f);
  b4_.assign(kOut, 0.0f);
  dw1_.resize(size(c1_) * kTaps * kGradRow);
  db1_.resize(size(c1_));
  dw2_.resize(size(c2_) * size(c1_) * kTaps * kGradRow);
  db2_.resize(size(c2_));
  dw3t_.resize(w3t_.size());
  db3_.resize(size(hp_));
  dw4t_.resize(w4t_.size());
  db4_.resize(kOut);
  in1_.assign(kPlane1, 0.0f);              // the borders stay 0
  in2_.assign(size(c1_) * kPlane2, 0.0f);  // likewise
  x3_.resize(size(k3_));
  h_.resize(size(hp_));
  z_.resize(kOut);
  dz_.assign(kOut, 0.0f);
  dh_.resize(size(hp_));
  dx3_.resize(size(k3_));
  g2_.assign(size(c2_) * kPlane2 + 1, 0.0f);  // and a spare float
  din_.resize(size(c1_) * 14 * 14);
  arg1_.resize(size(c1_) * 14 * 14);
  arg2_.resize(size(k3_));
}

std::vector<float> SmallCnn::initial_parameters(core::RngStream& rng) const {
  std::vector<float> p(count_);
  for (const Tensor& t : tensors_) {
    const double bound = 1 / std::sqrt(static_cast<double>(t.fan_in));
    for (std::size_t i = 0; i < t.size; ++i)
      p[t.offset + i] = static_cast<float>(rng.uniform(-bound, bound));
  }
  return p;
}

void SmallCnn::set_parameters(std::span<const float> p) {
  if (p.size() != count_)
    throw std::invalid_argument(
        fmt::format("CNN: {} parameters given, the network has {}", p.size(), count_));
  p_.assign(p.begin(), p.end());
  pack_filters(p_.data() + tensors_[0].offset, 1, c1_, kBlock1, w1p_.data());
  const float* w2 = p_.data() + tensors_[2].offset;
  pack_filters(w2, c1_, c2_, kBlock2, w2p_.data());
  for (int ci = 0; ci < c1_; ++ci)
    for (int c = 0; c < c2_; ++c)
      for (int k = 0; k < kFilter; ++k)
        w2flip_[(size(ci) * size(c2_) + size(c)) * kFilter + size(k)] =
            w2[(size(c) * size(c1_) + size(ci)) * kFilter + size(kFilter - 1 - k)];
  pack_filters(w2flip_.data(), c2_, c1_, kBlock2, w2flip_p_.data());
  const float* w3 = p_.data() + tensors_[4].offset;
  for (int j = 0; j < hidden_; ++j)
    for (int i = 0; i < k3_; ++i)
      w3t_[size(i) * size(hp_) + size(j)] = w3[size(j) * size(k3_) + size(i)];
  std::copy_n(p_.data() + tensors_[5].offset, hidden_, b3_.begin());
  const float* w4 = p_.data() + tensors_[6].offset;
  for (int o = 0; o < kClasses; ++o)
    for (int j = 0; j < hidden_; ++j)
      w4t_[size(j) * kOut + size(o)] = w4[size(o) * size(hidden_) + size(j)];
  std::copy_n(p_.data() + tensors_[7].offset, kClasses, b4_.begin());
}

void SmallCnn::forward(const float* image) {
  for (int y = 0; y < kSide; ++y)
    std::memcpy(in1_.data() + (y + 2) * kStride1 + 2, image + y * kSide, kSide * sizeof(float));
  conv_relu_pool_28(in1_.data(), w1p_.data(), p_.data() + tensors_[1].offset, c1_, in2_.data(),
                    arg1_.data());
  conv_relu_pool_14(in2_.data(), c1_, w2p_.data(), p_.data() + tensors_[3].offset, c2_, x3_.data(),
                    arg2_.data());
  dense_forward(x3_.data(), k3_, w3t_.data(), b3_.data(), hp_, true, h_.data());
  dense_forward(h_.data(), hp_, w4t_.data(), b4_.data(), kOut, false, z_.data());
}

// The gradient of scale * cross-entropy(softmax(z), label), back to every parameter, added to
// the accumulators.
void SmallCnn::backward(int label, float scale) {
  float m = z_[0];
  for (int o = 1; o < kClasses; ++o) m = std::max(m, z_[o]);
  float e[kClasses], sum = 0;
  for (int o = 0; o < kClasses; ++o) sum += e[o] = exp_nonpositive(z_[o] - m);
  for (int o = 0; o < kClasses; ++o) dz_[o] = (e[o] / sum - (o == label ? 1.0f : 0.0f)) * scale;
  dense_backward(h_.data(), hp_, dz_.data(), kOut, w4t_.data(), dw4t_.data(), db4_.data(),
                 dh_.data());
  for (int j = 0; j < hp_; ++j) dh_[j] = h_[j] > 0 ? dh_[j] : 0.0f;  // ReLU
  dense_backward(x3_.data(), k3_, dh_.data(), hp_, w3t_.data(), dw3t_.data(), db3_.data(),
                 dx3_.data());
  conv_weight_grad(in2_.data(), c1_, kPlane2, kStride2, arg2_.data(), dx3_.data(), c2_, 49,
                   dw2_.data(), db2_.data());
  // Layer 2's output gradient, nonzero only where a pool took its maximum (g2_ is 0 elsewhere,
  // and again after use), then its input's.
  // Without branches (half the positions are active): an inactive one writes the spare float
  // at the end of g2_.
  const std::size_t spare = g2_.size() - 1;
  const auto scatter = [&](bool clear) {
    for (int c = 0; c < c2_; ++c)
      for (int q = 0; q < 49; ++q) {
        const PoolArg a = arg2_[size(c) * 49 + size(q)];
        g2_[a >= 0 ? size(c) * kPlane2 + size(a + 2 * kStride2 + 2) : spare] =
            clear ? 0.0f : dx3_[size(c) * 49 + size(q)];
      }
  };
  scatter(false);
  conv_14(g2_.data(), c2_, w2flip_p_.data(), c1_, din_.data());
  scatter(true);
  conv_weight_grad(in1_.data(), 1, kPlane1, kStride1, arg1_.data(), din_.data(), c1_, 14 * 14,
                   dw1_.data(), db1_.data());
}

void SmallCnn::clear_gradient() {
  for (auto* v : {&dw1_, &db1_, &dw2_, &db2_, &dw3t_, &db3_, &dw4t_, &db4_})
    std::fill(v->begin(), v->end(), 0.0f);
}

void SmallCnn::unpack_gradient(std::span<float> grad) const {
  float* g = grad.data();
  for (int c = 0; c < c1_; ++c)
    for (int k = 0; k < kFilter; ++k)
      g[tensors_[0].offset + size(c) * kFilter + size(k)] =
          dw1_[(size(c) * kTaps + size(k / kTaps)) * kGradRow + size(k % kTaps)];
  std::copy(db1_.begin(), db1_.end(), g + tensors_[1].offset);
  for (int c = 0; c < c2_; ++c)
    for (int ci = 0; ci < c1_; ++ci)
      for (int k = 0; k < kFilter; ++k)
        g[tensors_[2].offset + (size(c) * size(c1_) + size(ci)) * kFilter + size(k)] =
            dw2_[((size(c) * size(c1_) + size(ci)) * kTaps + size(k / kTaps)) * kGradRow +
                 size(k % kTaps)];
  std::copy(db2_.begin(), db2_.end(), g + tensors_[3].offset);
  for (int j = 0; j < hidden_; ++j)
    for (int i = 0; i < k3_; ++i)
      g[tensors_[4].offset + size(j) * size(k3_) + size(i)] = dw3t_[size(i) * size(hp_) + size(j)];
  std::copy_n(db3_.begin(), hidden_, g + tensors_[5].offset);
  for (int o = 0; o < kClasses; ++o)
    for (int j = 0; j < hidden_; ++j)
      g[tensors_[6].offset + size(o) * size(hidden_) + size(j)] = dw4t_[size(j) * kOut + size(o)];
  std::copy_n(db4_.begin(), kClasses, g + tensors_[7].offset);
}

void SmallCnn::logits(const float* image, float* z) {
  forward(image);
  std::copy_n(z_.begin(), kClasses, z);
}

void SmallCnn::gradient(const float* const* images, const int* labels, int n,
                        std::span<float> grad) {
  if (grad.size() != count_ || n < 1)
    throw std::invalid_argument("CNN::gradient: a gradient of the network's size and n >= 1");
  clear_gradient();
  const float scale = 1.0f / static_cast<float>(n);  // the batch's mean
  for (int i = 0; i < n; ++i) {
    if (labels[i] < 0 || labels[i] >= kClasses)
      throw std::invalid_argument(fmt::format("CNN: label {} is not a digit", labels[i]));
    forward(images[i]);
    backward(labels[i], scale);
  }
  unpack_gradient(grad);
}

double SmallCnn::accuracy(const float* images, const int* labels, int n) {
  if (n < 1) return 0;
  int correct = 0;
  for (int i = 0; i < n; ++i) {
    forward(images + size(i) * kPixels);
    int best = 0;
    for (int o = 1; o < kClasses; ++o)
      if (z_[o] > z_[best]) best = o;  // the first largest, as torch.argmax
    correct += best == labels[i];
  }
  return static_cast<double>(correct) / n;
}

}  // namespace fbosim::datasets::cnn
