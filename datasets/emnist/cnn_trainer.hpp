#pragma once
// The EMNIST CNN, declared without LibTorch: the training lives in the LibTorch plugin
// (datasets/emnist/torch/cnn_trainer.cpp, loaded on first use; datasets/torch_plugin.hpp).
//   conv 5x5 (1 -> conv1 channels, same padding), ReLU, 2x2 max-pool,
//   conv 5x5 (conv1 -> conv2), ReLU, 2x2 max-pool, dense (conv2*7*7 -> hidden), ReLU, dense -> 10;
// Adam with L2 as weight decay and time-based learning-rate decay applied per epoch,
// lr_e = lr / (1 + decay * e) [choice; spec dp-fts-de.md section 8], minibatches in an order drawn
// from the evaluation's seed; weights initialised from the same seed (PyTorch's default
// uniform(+-1/sqrt(fan_in))) so that an evaluation is reproducible on any thread.
#include <cstdint>

#include "datasets/emnist/femnist_data.hpp"

namespace fbosim::datasets {

// Defaults [choice]: half the channels of spec section 8's network (8/16/64), which keep
// 0.77 mean test accuracy on the first 10 writers at lr 0.005 (the 8/16/64 network: 0.81, in
// about 1.6 times the time); one evaluation takes 0.08-0.1 s on one core here (README).
struct CnnOptions {
  int conv1 = 4;    ///< objective.conv1: channels of the first convolution
  int conv2 = 8;    ///< objective.conv2: channels of the second
  int hidden = 32;  ///< objective.hidden: units of the dense layer
  int epochs = 10;  ///< objective.epochs
  int batch = 16;   ///< objective.batch_size
};

/// Trains on the writer's training digits and returns the accuracy on its test digits.
/// Throws std::runtime_error when the build has no LibTorch or the plugin cannot be loaded.
double cnn_accuracy(const WriterDigits& w, const CnnOptions& o, double lr, double decay, double l2,
                    std::uint64_t seed);

/// The plugin's entry point (extern "C", looked up by name).
using CnnTrainFn = double (*)(const WriterDigits*, const CnnOptions*, double, double, double,
                              std::uint64_t, char* error, int error_size);

}  // namespace fbosim::datasets
