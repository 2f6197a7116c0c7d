// Writes what tests/datasets/emnist/small_cnn_reference.py checks against its numpy CNN: for one
// network size, n training digits of a writer, the initial parameters drawn from a seed, the
// logits of each digit, the gradient of their mean cross-entropy, and a short training (its
// initial parameters, minibatch orders and final parameters). Text files, one number a line
// (floats with 9 significant digits: exact for float32).
//   cnn_dump <femnist_digits dir> <out dir> <conv1> <conv2> <hidden> <n> <epochs> <batch>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "datasets/emnist/cnn_trainer.hpp"
#include "datasets/emnist/small_cnn.hpp"

using namespace fbosim::datasets;

namespace {
template <typename T>
void write(const std::string& path, const std::vector<T>& v) {
  std::ofstream f(path);
  char buf[32];
  for (const T& x : v) {
    if constexpr (std::is_floating_point_v<T>)
      std::snprintf(buf, sizeof buf, "%.9g\n", static_cast<double>(x));
    else
      std::snprintf(buf, sizeof buf, "%d\n", static_cast<int>(x));
    f << buf;
  }
  if (!f) throw std::runtime_error("cannot write " + path);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 9) {
    std::fprintf(stderr, "usage: cnn_dump DATA OUT conv1 conv2 hidden n epochs batch\n");
    return 2;
  }
  const std::string out = argv[2];
  CnnOptions o;
  o.conv1 = std::atoi(argv[3]);
  o.conv2 = std::atoi(argv[4]);
  o.hidden = std::atoi(argv[5]);
  const int n = std::atoi(argv[6]);
  o.epochs = std::atoi(argv[7]);
  o.batch = std::atoi(argv[8]);
  WriterDigits w = load_femnist_digits(argv[1]).at(0);
  w.train_x.conservativeResize(n, Eigen::NoChange);
  w.train_y.resize(static_cast<std::size_t>(n));
  write(out + "/images.txt",
        std::vector<float>(w.train_x.data(), w.train_x.data() + w.train_x.size()));
  write(out + "/labels.txt", w.train_y);

  cnn::SmallCnn net(o.conv1, o.conv2, o.hidden);
  fbosim::core::RngStream rng(11);
  const std::vector<float> p = net.initial_parameters(rng);
  write(out + "/params.txt", p);
  net.set_parameters(p);
  std::vector<float> logits(static_cast<std::size_t>(n) * cnn::SmallCnn::kClasses);
  std::vector<const float*> images;
  for (int i = 0; i < n; ++i) {
    images.push_back(w.train_x.data() + static_cast<std::ptrdiff_t>(i) * cnn::SmallCnn::kPixels);
    net.logits(images.back(), logits.data() + i * cnn::SmallCnn::kClasses);
  }
  write(out + "/logits.txt", logits);
  std::vector<float> grad(net.parameter_count());
  net.gradient(images.data(), w.train_y.data(), n, grad);
  write(out + "/gradient.txt", grad);

  // The training: lr 0.01, decay 0.5 per epoch, L2 0.01, seed 5.
  CnnTrace trace;
  train_cnn(w, o, 0.01, 0.5, 0.01, 5, &trace);
  write(out + "/train_initial.txt", trace.initial);
  std::vector<int> orders;
  for (const auto& e : trace.orders) orders.insert(orders.end(), e.begin(), e.end());
  write(out + "/train_orders.txt", orders);
  write(out + "/train_final.txt", trace.final);
  return 0;
}
