#pragma once
// EMNIST (DP-FTS-DE Sec. 5 and its appendix on the experiments): agent n tunes the CNN of writer
// n of the FEMNIST digits: x -> learning rate, learning-rate decay and L2, each linear in
// [1e-7, 0.02]; one evaluation trains on the writer's training digits and returns the accuracy
// on its test digits (y = f = accuracy; no known optimum). The CNN and its training:
// datasets/emnist/cnn_trainer.hpp.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "datasets/emnist/cnn_trainer.hpp"
#include "datasets/emnist/femnist_data.hpp"
#include "datasets/objective_family.hpp"
#include "schema/fwd.hpp"

namespace fbosim::datasets {

struct ObjectiveFamilyEntry;

struct EmnistSpec {
  /// The digits, here <datasets.root>/femnist_digits when data_dir is empty.
  static std::string default_dir(const std::string& data_root);
  std::string data_dir;
  CnnOptions cnn;
};

class EmnistFamily final : public ObjectiveFamily {
 public:
  /// Loads the digits; throws std::runtime_error for missing data, std::invalid_argument for
  /// sizes of the CNN out of range.
  explicit EmnistFamily(const EmnistSpec& spec);
  int max_agents() const override { return static_cast<int>(writers_.size()); }
  bool varies_by_run() const override { return false; }
  /// Writer n's training digits (what the CNN of writer n trains on, every epoch). Throws
  /// std::invalid_argument outside [1, max_agents()], as make().
  std::vector<std::int64_t> records(int agents) const override;
  std::vector<std::shared_ptr<const Objective>> make(int agents,
                                                     const core::RngFactory& rng) const override;

 private:
  void check_agents(int agents) const;
  EmnistSpec spec_;
  std::vector<std::shared_ptr<const WriterDigits>> writers_;
};

/// objective.conv1, objective.conv2, objective.hidden, objective.epochs, objective.batch_size.
const schema::Group<EmnistSpec>& emnist_keys();
/// Registers emnist.
void register_emnist_family(schema::Registry<ObjectiveFamilyEntry>& registry);

/// x in [0,1]^3 -> (learning rate, decay, L2), each 1e-7 + x_k (0.02 - 1e-7).
Eigen::Vector3d emnist_hyperparameters(const Eigen::VectorXd& x);

}  // namespace fbosim::datasets
