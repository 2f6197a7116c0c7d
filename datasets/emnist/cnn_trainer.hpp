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

/// The most training and test digits of a writer of the published FEMNIST digits (writers.csv:
/// 119 and 16; 102 and 11 on average): the size the resource estimate counts a training at.
inline constexpr int kMaxTrainDigits = 120;
inline constexpr int kMaxTestDigits = 16;

/// The work of one training and test pass at kMaxTrainDigits and kMaxTestDigits, for the
/// resource estimate: the dense floating-point count of the layer shapes (a multiply-add counted
/// as 2; per training digit the forward pass, every layer's weight gradient and the input
/// gradients of all but the first; docs/BENCHMARKS.md, "The EMNIST CNN": 1.37 GFLOP at the
/// default's ~102 digits), in 4-float vector operations, the width of the baseline clone the
/// trainer runs on any x86-64 CPU (its AVX2 clone does 8 at once), so that the estimate's rate
/// (3.3e9 operations per core-second) gives an upper time: 0.12 s a training at the defaults
/// against 0.031 s measured on an AVX2 core.
double cnn_training_operations(const CnnOptions& o);

/// train_cnn, then the accuracy on the writer's test digits.
double cnn_accuracy(const WriterDigits& w, const CnnOptions& o, double lr, double decay, double l2,
                    std::uint64_t seed);

}  // namespace fbosim::datasets
