#pragma once
// The training of the EMNIST CNN (datasets/emnist/small_cnn.hpp) for one evaluation of DP-FTS-DE's
// EMNIST objective (Sec. 5, App. B.2.1): Adam (datasets/emnist/adam.hpp) with L2 as weight decay
// and the learning rate decayed per epoch, lr_e = lr / (1 + decay * e) [choice: the paper names
// the learning rate, its decay and L2 as the hyperparameters, not the optimiser or the decay's
// form], minibatches of the training digits in an order drawn per epoch, then the accuracy on
// the test digits. The initial weights and the orders come from the evaluation's seed, so an
// evaluation gives the same bits on any machine and thread.
#include <cstdint>
#include <vector>

#include "datasets/emnist/femnist_data.hpp"

namespace fbosim::datasets {

// Defaults [choice]: half the channels of an 8/16/64 network; at lr 0.005 (no decay, no L2) they
// reach 0.68 mean test accuracy on the first 10 writers (8/16/64: 0.81, in 3.4 times the time).
struct CnnOptions {
  int conv1 = 4;    ///< objective.conv1: channels of the first convolution
  int conv2 = 8;    ///< objective.conv2: channels of the second
  int hidden = 32;  ///< objective.hidden: units of the dense layer
  int epochs = 10;  ///< objective.epochs
  int batch = 16;   ///< objective.batch_size
};

/// What a training drew and reached (for tests against an independent implementation).
struct CnnTrace {
  std::vector<float> initial, final;     ///< parameters, datasets::cnn::SmallCnn's layout
  std::vector<std::vector<int>> orders;  ///< the training digits' order in each epoch
};

/// Trains on the writer's training digits and returns the parameters (SmallCnn's layout).
/// Initial weights: PyTorch's default, uniform(+-1/sqrt(fan_in)); each epoch's order: a
/// Fisher-Yates shuffle; both from core::RngStream(seed), in that order.
std::vector<float> train_cnn(const WriterDigits& w, const CnnOptions& o, double lr, double decay,
                             double l2, std::uint64_t seed, CnnTrace* trace = nullptr);

/// train_cnn, then the accuracy on the writer's test digits.
double cnn_accuracy(const WriterDigits& w, const CnnOptions& o, double lr, double decay, double l2,
                    std::uint64_t seed);

}  // namespace fbosim::datasets
