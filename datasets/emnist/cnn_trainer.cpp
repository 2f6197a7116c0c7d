#include "datasets/emnist/cnn_trainer.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "datasets/emnist/adam.hpp"
#include "datasets/emnist/small_cnn.hpp"
#include "core/rng.hpp"

namespace fbosim::datasets {

namespace {

std::vector<float> train(cnn::SmallCnn& net, const WriterDigits& w, const CnnOptions& o, double lr,
                         double decay, double l2, std::uint64_t seed, CnnTrace* trace) {
  core::RngStream rng(seed);
  std::vector<float> params = net.initial_parameters(rng);
  if (trace) trace->initial = params;
  std::vector<float> grad(params.size());
  cnn::Adam adam(params.size(), l2);
  const int n = static_cast<int>(w.train_x.rows());
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::vector<const float*> images;
  std::vector<int> labels;
  for (int e = 0; e < o.epochs; ++e) {
    core::shuffle(order, rng);
    if (trace) trace->orders.push_back(order);
    const double lr_e = lr / (1 + decay * e);
    for (int b = 0; b < n; b += o.batch) {
      images.clear();
      labels.clear();
      for (int i = b; i < std::min(n, b + o.batch); ++i) {
        const int k = order[static_cast<std::size_t>(i)];
        images.push_back(w.train_x.data() + static_cast<std::ptrdiff_t>(k) * w.train_x.cols());
        labels.push_back(w.train_y[static_cast<std::size_t>(k)]);
      }
      net.set_parameters(params);
      net.gradient(images.data(), labels.data(), static_cast<int>(images.size()), grad);
      adam.step(params, grad, lr_e);
    }
  }
  if (trace) trace->final = params;
  return params;
}

}  // namespace

std::vector<float> train_cnn(const WriterDigits& w, const CnnOptions& o, double lr, double decay,
                             double l2, std::uint64_t seed, CnnTrace* trace) {
  cnn::SmallCnn net(o.conv1, o.conv2, o.hidden);
  return train(net, w, o, lr, decay, l2, seed, trace);
}

double cnn_training_operations(const CnnOptions& o) {
  // Multiply-adds per digit: conv1 (28 x 28 outputs x conv1 channels x 25 taps), conv2 on the
  // 14 x 14 pooled map (x conv1 inputs), the dense layer on 7 x 7 x conv2, the output layer.
  const double c1 = o.conv1, c2 = o.conv2, h = o.hidden;
  const double conv1 = 28.0 * 28 * 25 * c1, conv2 = 14.0 * 14 * 25 * c1 * c2;
  const double forward = 2 * (conv1 + conv2 + 49 * c2 * h + 10 * h);
  const double train = 3 * forward - 2 * conv1;  // no input gradient of the first layer
  const double flops = o.epochs * double{kMaxTrainDigits} * train + kMaxTestDigits * forward;
  return flops / 4;
}

double cnn_accuracy(const WriterDigits& w, const CnnOptions& o, double lr, double decay, double l2,
                    std::uint64_t seed) {
  cnn::SmallCnn net(o.conv1, o.conv2, o.hidden);
  net.set_parameters(train(net, w, o, lr, decay, l2, seed, nullptr));
  return net.accuracy(w.test_x.data(), w.test_y.data(), static_cast<int>(w.test_y.size()));
}

}  // namespace fbosim::datasets
