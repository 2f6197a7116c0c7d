#include "datasets/emnist/cnn_trainer.hpp"

#include <stdexcept>
#include <string>

#include "datasets/torch_plugin.hpp"

namespace fbosim::datasets {

double cnn_accuracy(const WriterDigits& w, const CnnOptions& o, double lr, double decay, double l2,
                    std::uint64_t seed) {
  static const auto train =
      reinterpret_cast<CnnTrainFn>(torch_plugin_symbol("fbosim_cnn_train_and_score"));
  char error[512] = {0};
  const double accuracy = train(&w, &o, lr, decay, l2, seed, error, sizeof error);
  if (error[0]) throw std::runtime_error(std::string("EMNIST CNN: ") + error);
  return accuracy;
}

}  // namespace fbosim::datasets
