#pragma once
// Adam (Kingma & Ba, ICLR 2015, Algorithm 1) with an L2 penalty added to the gradient, as
// torch.optim.Adam's weight_decay does (not AdamW): g <- g + l2 p; m <- b1 m + (1 - b1) g;
// v <- b2 v + (1 - b2) g^2; p <- p - lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps),
// with PyTorch's defaults b1 = 0.9, b2 = 0.999, eps = 1e-8: the optimiser of DP-FTS-DE's EMNIST
// experiment (Sec. 5 tunes its learning rate, learning-rate decay and L2). Float32 per element
// in that order, the bias corrections in double.
#include <cstddef>
#include <span>
#include <vector>

namespace fbosim::datasets::cnn {

class Adam {
 public:
  /// n parameters; l2 >= 0, the weight decay.
  Adam(std::size_t n, double l2);
  /// One step at learning rate lr: params -= the update of grad (both n floats).
  void step(std::span<float> params, std::span<const float> grad, double lr);
  long steps() const { return t_; }

 private:
  std::vector<float> m_, v_;
  double l2_;
  long t_ = 0;
  double b1t_ = 1, b2t_ = 1;  // b1^t, b2^t by repeated products (no libm pow)
};

}  // namespace fbosim::datasets::cnn
