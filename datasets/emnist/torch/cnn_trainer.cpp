// LibTorch side of the EMNIST CNN (see datasets/emnist/cnn_trainer.hpp); built into the plugin
// libfbosim_torch.so only.
#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <mutex>

#include "datasets/emnist/cnn_trainer.hpp"

namespace {

using fbosim::datasets::CnnOptions;
using fbosim::datasets::WriterDigits;

struct Net : torch::nn::Module {
  Net(const CnnOptions& o)
      : conv1(register_module(
            "conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, o.conv1, 5).padding(2)))),
        conv2(register_module(
            "conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(o.conv1, o.conv2, 5).padding(2)))),
        fc1(register_module("fc1", torch::nn::Linear(o.conv2 * 7 * 7, o.hidden))),
        fc2(register_module("fc2", torch::nn::Linear(o.hidden, 10))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1->forward(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2->forward(x)), 2);
    x = torch::relu(fc1->forward(x.flatten(1)));
    return fc2->forward(x);
  }
  torch::nn::Conv2d conv1, conv2;
  torch::nn::Linear fc1, fc2;
};

torch::Tensor images(const WriterDigits::Matrix& m) {
  return torch::from_blob(const_cast<float*>(m.data()), {m.rows(), 1, 28, 28}, torch::kFloat32)
      .clone();
}

torch::Tensor labels(const std::vector<int>& y) {
  std::vector<std::int64_t> v(y.begin(), y.end());
  return torch::tensor(v, torch::kInt64);
}

double train_and_score(const WriterDigits& w, const CnnOptions& o, double lr, double decay,
                       double l2, std::uint64_t seed) {
  // Agents run in parallel on fbosim's pool: one LibTorch thread each. The intra-op count is an
  // OpenMP setting of the calling thread, so every pool thread sets it for itself; set once,
  // a second pool thread trained with the default count, and which agent got which thread
  // (hence the result) depended on scheduling. The inter-op pool is process-wide and can be
  // sized only once.
  static std::once_flag interop;
  std::call_once(interop, [] { at::set_num_interop_threads(1); });
  thread_local const bool single_threaded = [] {
    at::set_num_threads(1);
    return true;
  }();
  (void)single_threaded;
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  Net net(o);
  {
    // PyTorch's default init, uniform(+-1/sqrt(fan_in)) for weights and biases, redrawn from this
    // evaluation's generator (module construction used the shared global one).
    torch::NoGradGuard no_grad;
    const auto init = [&gen](torch::Tensor weight, torch::Tensor bias) {
      const double bound = 1 / std::sqrt(static_cast<double>(weight[0].numel()));
      weight.uniform_(-bound, bound, gen);
      bias.uniform_(-bound, bound, gen);
    };
    init(net.conv1->weight, net.conv1->bias);
    init(net.conv2->weight, net.conv2->bias);
    init(net.fc1->weight, net.fc1->bias);
    init(net.fc2->weight, net.fc2->bias);
  }
  const torch::Tensor x = images(w.train_x), y = labels(w.train_y);
  torch::optim::Adam opt(net.parameters(), torch::optim::AdamOptions(lr).weight_decay(l2));
  const std::int64_t n = x.size(0);
  for (int e = 0; e < o.epochs; ++e) {
    for (auto& group : opt.param_groups())
      static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr / (1 + decay * e));
    const torch::Tensor order = torch::randperm(n, gen, torch::kInt64);
    for (std::int64_t b = 0; b < n; b += o.batch) {
      const torch::Tensor idx = order.slice(0, b, std::min(n, b + o.batch));
      opt.zero_grad();
      const torch::Tensor loss = torch::nn::functional::cross_entropy(
          net.forward(x.index_select(0, idx)), y.index_select(0, idx));
      loss.backward();
      opt.step();
    }
  }
  torch::NoGradGuard no_grad;
  const torch::Tensor pred = net.forward(images(w.test_x)).argmax(1);
  return pred.eq(labels(w.test_y)).to(torch::kFloat64).mean().item<double>();
}

}  // namespace

extern "C" double fbosim_cnn_train_and_score(const WriterDigits* w, const CnnOptions* o, double lr,
                                             double decay, double l2, std::uint64_t seed,
                                             char* error, int error_size) {
  try {
    return train_and_score(*w, *o, lr, decay, l2, seed);
  } catch (const std::exception& e) {
    std::snprintf(error, static_cast<std::size_t>(error_size), "%s", e.what());
    return 0;
  }
}
