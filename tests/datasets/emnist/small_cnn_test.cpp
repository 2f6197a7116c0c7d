// The EMNIST CNN's own checks (issue #27): exp against libm, gradients against finite
// differences, Adam against its closed form, reproducibility. The forward pass, the gradient and
// a training are also compared with an independent numpy CNN (small_cnn_reference.py).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include "datasets/emnist/adam.hpp"
#include "datasets/emnist/cnn_trainer.hpp"
#include "datasets/emnist/float_exp.hpp"
#include "datasets/emnist/small_cnn.hpp"
#include "tests/data_sets.hpp"

using namespace fbosim;
using namespace fbosim::datasets;
using cnn::SmallCnn;

namespace {

const std::vector<WriterDigits>& writers() {
  static const std::vector<WriterDigits> w =
      load_femnist_digits(fbosim::testing::data_path("femnist_digits"));
  return w;
}

// The mean cross-entropy of the first n training digits of writer 0, in double from the logits.
double mean_loss(SmallCnn& net, const std::vector<float>& p, int n) {
  net.set_parameters(p);
  const WriterDigits& w = writers()[0];
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    float z[SmallCnn::kClasses];
    net.logits(w.train_x.data() + i * SmallCnn::kPixels, z);
    double m = z[0], s = 0;
    for (float v : z) m = std::max(m, static_cast<double>(v));
    for (float v : z) s += std::exp(v - m);
    sum += std::log(s) + m - z[w.train_y[static_cast<std::size_t>(i)]];
  }
  return sum / n;
}

std::vector<float> gradient(SmallCnn& net, const std::vector<float>& p, int n) {
  const WriterDigits& w = writers()[0];
  std::vector<const float*> images;
  for (int i = 0; i < n; ++i) images.push_back(w.train_x.data() + i * SmallCnn::kPixels);
  std::vector<float> g(net.parameter_count());
  net.set_parameters(p);
  net.gradient(images.data(), w.train_y.data(), n, g);
  return g;
}

}  // namespace

TEST_CASE("CNN exp: within 1.4 ulp of libm's on [-87, 0], 0 below, NaN for NaN") {
  double worst = 0;
  for (int i = 0; i <= 870000; ++i) {
    const float x = -1e-4f * static_cast<float>(i);
    const double e = std::exp(static_cast<double>(x));
    worst = std::max(worst, std::abs(cnn::exp_nonpositive(x) - e) / e);
  }
  CHECK(worst < 1.4 * std::numeric_limits<float>::epsilon() / 2);
  CHECK(cnn::exp_nonpositive(0.0f) == 1.0f);
  CHECK(cnn::exp_nonpositive(-88.0f) == 0.0f);
  CHECK(cnn::exp_nonpositive(-std::numeric_limits<float>::infinity()) == 0.0f);
  CHECK(std::isnan(cnn::exp_nonpositive(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("CNN gradient: each tensor's directional derivatives match central differences") {
  if (!fbosim::testing::have_data("femnist_digits")) return;
  // Along the tensor's own gradient (the largest change: a term too large or too small shows)
  // and along a random direction (a term computed for the wrong weights shows), at PyTorch's
  // initialisation, for the default network and one with channel and unit tails.
  for (const auto& [c1, c2, h] : {std::tuple{4, 8, 32}, std::tuple{3, 5, 13}}) {
    SmallCnn net(c1, c2, h);
    core::RngStream rng(3);
    const std::vector<float> p = net.initial_parameters(rng);
    const int n = 6;
    const std::vector<float> g = gradient(net, p, n);
    for (const SmallCnn::Tensor& t : net.tensors()) {
      for (int random = 0; random < 2; ++random) {
        std::vector<double> d(t.size);
        double norm = 0;
        for (std::size_t i = 0; i < t.size; ++i) {
          d[i] = random ? rng.uniform(-1, 1) : g[t.offset + i];
          norm += d[i] * d[i];
        }
        double slope = 0;  // g . d / |d|
        for (std::size_t i = 0; i < t.size; ++i) slope += g[t.offset + i] * d[i] / std::sqrt(norm);
        // The network is piecewise linear before the softmax: a step that crosses a ReLU or
        // pool kink bends the difference quotient (more often for a long step), one too short
        // drowns in float rounding. The best of three steps must agree.
        double best = std::numeric_limits<double>::infinity(), fd = 0;
        for (const double eps : {1e-3, 3e-4, 1e-4}) {
          std::vector<float> plus = p, minus = p;
          for (std::size_t i = 0; i < t.size; ++i) {
            plus[t.offset + i] += static_cast<float>(eps * d[i] / std::sqrt(norm));
            minus[t.offset + i] -= static_cast<float>(eps * d[i] / std::sqrt(norm));
          }
          const double q = (mean_loss(net, plus, n) - mean_loss(net, minus, n)) / (2 * eps);
          if (std::abs(q - slope) < best) best = std::abs(q - slope), fd = q;
        }
        INFO(c1 << "/" << c2 << "/" << h << " " << t.name << (random ? " random" : " gradient")
                << " direction: analytic " << slope << ", finite differences " << fd);
        CHECK(best <= 0.02 * std::abs(slope) + 2e-5);
      }
    }
  }
}

TEST_CASE("Adam: two steps against the closed form, L2 added to the gradient") {
  // Kingma & Ba's Algorithm 1 in double: p1 = p0 - lr g0 / (|g0| + eps) after the bias
  // corrections (m1 = 0.1 g, v1 = 0.001 g^2), then a second step from the moments.
  const std::vector<float> p0 = {0.5f, -0.25f, 0.0f, 2.0f}, g = {0.1f, -3.0f, 1e-9f, 0.0f};
  const double lr = 0.01, l2 = 0.1;
  cnn::Adam adam(4, l2);
  std::vector<float> p = p0;
  adam.step(p, g, lr);
  adam.step(p, g, lr / 2);
  for (std::size_t i = 0; i < 4; ++i) {
    double m = 0, v = 0, q = p0[i];
    for (int t = 1; t <= 2; ++t) {
      const double gt = g[i] + l2 * q;
      m = 0.9 * m + 0.1 * gt;
      v = 0.999 * v + 0.001 * gt * gt;
      const double mhat = m / (1 - std::pow(0.9, t)), vhat = v / (1 - std::pow(0.999, t));
      q -= (t == 1 ? lr : lr / 2) * mhat / (std::sqrt(vhat) + 1e-8);
    }
    INFO(i);
    CHECK(p[i] == Approx(q).epsilon(1e-6).margin(1e-9));
  }
  CHECK(adam.steps() == 2);
}

TEST_CASE("CNN training: the same accuracy on another thread, and the digits learnt") {
  if (!fbosim::testing::have_data("femnist_digits")) return;
  const WriterDigits& w = writers()[0];
  CnnOptions o;
  const double a = cnn_accuracy(w, o, 0.01, 1e-3, 1e-4, 42);
  double b = -1;
  std::thread other([&] { b = cnn_accuracy(w, o, 0.01, 1e-3, 1e-4, 42); });
  other.join();
  CHECK(a == b);
  CHECK(a > 0.4);  // chance is 0.1
  // The seed draws the initial weights and the orders: another seed, another training.
  CnnTrace t1, t2;
  train_cnn(w, o, 0.005, 1e-4, 1e-5, 42, &t1);
  train_cnn(w, o, 0.005, 1e-4, 1e-5, 43, &t2);
  CHECK(t1.initial != t2.initial);
  CHECK(t1.orders != t2.orders);
  CHECK(t1.orders.size() == 10);
}

TEST_CASE("CNN sizes out of range are refused, naming them") {
  CHECK_THROWS_WITH(SmallCnn(0, 8, 32), Catch::Contains("0/8/32"));
  CHECK_THROWS_WITH(SmallCnn(4, 10000, 100000),
                    Catch::Contains("4/10000/100000") && Catch::Contains("parameters"));
  CHECK_NOTHROW(SmallCnn::check_size(1, 1, 1));
}
