// The emnist family's keys and registry entry.
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "datasets/emnist/emnist_objective.hpp"
#include "datasets/emnist/small_cnn.hpp"
#include "datasets/missing_data.hpp"
#include "datasets/objective_family_entry.hpp"
#include "schema/group.hpp"
#include "schema/registry.hpp"

namespace fbosim::datasets {

std::string EmnistSpec::default_dir(const std::string& data_root) {
  return (std::filesystem::path(data_root) / "femnist_digits").string();
}

const schema::Group<EmnistSpec>& emnist_keys() {
  using E = EmnistSpec;
  using schema::at;
  using schema::Range;
  static const auto g =
      schema::Group<E>{}
          .integer("objective.conv1", at(&E::cnn, &CnnOptions::conv1), Range::closed(1, 10000),
                   "`emnist`: channels of the CNN's first 5x5 convolution [choice] (half the "
                   "spec's)")
          .integer("objective.conv2", at(&E::cnn, &CnnOptions::conv2), Range::closed(1, 10000),
                   "`emnist`: channels of the second 5x5 convolution [choice]")
          .integer("objective.hidden", at(&E::cnn, &CnnOptions::hidden), Range::closed(1, 100000),
                   "`emnist`: units of the dense layer [choice]")
          // A network too large to train is refused when the config is read, before any data
          // is loaded (issue 27's trainer holds at most SmallCnn's parameter bound).
          .check([](const E& e, schema::Problems& p) {
            const CnnOptions& c = e.cnn;
            try {
              cnn::SmallCnn::check_size(c.conv1, c.conv2, c.hidden);
            } catch (const std::invalid_argument& x) {
              p.push_back(
                  {"objective.hidden", fmt::format("objective.conv1/conv2/hidden {}/{}/{}: {}",
                                                   c.conv1, c.conv2, c.hidden, x.what())});
            }
          })
          .include(epochs_keys(), at(&E::cnn, &CnnOptions::epochs))
          .integer("objective.batch_size", at(&E::cnn, &CnnOptions::batch),
                   Range::closed(1, 100000),
                   "`emnist`: minibatch size of the CNN's training [choice]");
  return g;
}

void register_emnist_family(schema::Registry<ObjectiveFamilyEntry>& registry) {
  ObjectiveFamilyEntry e = make_family_entry<EmnistSpec>(
      "emnist",
      "FEMNIST digits: agent n tunes a CNN's learning rate, decay and L2 on writer n, test "
      "accuracy (DP-FTS-DE sec. 5; fbosim's own float32 CNN)",
      emnist_keys(), EmnistSpec{},
      [](const EmnistSpec& spec, const std::string& root) {
        EmnistSpec s = spec;
        if (s.data_dir.empty()) s.data_dir = EmnistSpec::default_dir(root);
        // Missing data names datasets.root, FBOSIM_DATA and the download (issue 28).
        if (auto m = missing_data("emnist", s.data_dir, root)) throw std::runtime_error(*m);
        return std::make_unique<EmnistFamily>(s);
      },
      [](const EmnistSpec&) {
        return ObjectiveShape{core::DomainKind::box, 3, 0, ""};
      });
  e.needs_data = true;
  e.evaluation_work = [](const schema::Options& o) {
    const CnnOptions& c = o.as<EmnistSpec>().cnn;
    return ObjectiveFamilyEntry::EvaluationWork{
        cnn_training_operations(c),
        fmt::format("one CNN training (objective.epochs = {} x at most {} digits, conv1/conv2/"
                    "hidden {}/{}/{})",
                    c.epochs, kMaxTrainDigits, c.conv1, c.conv2, c.hidden)};
  };
  registry.add(std::move(e));
}

}  // namespace fbosim::datasets
