// The activity family's keys and registry entry.
#include <filesystem>
#include <stdexcept>

#include "datasets/activity/activity_objective.hpp"
#include "datasets/missing_data.hpp"
#include "datasets/objective_family_entry.hpp"
#include "schema/group.hpp"
#include "schema/registry.hpp"

namespace fbosim::datasets {

std::string ActivitySpec::default_dir(const std::string& data_root) {
  return (std::filesystem::path(data_root) / "har" / "UCI HAR Dataset").string();
}

const schema::Group<ActivitySpec>& activity_keys() {
  using A = ActivitySpec;
  static const auto g =
      schema::Group<A>{}
          .include(split_seed_keys(), &A::split_seed)
          .include(epochs_keys(), &A::epochs)
          .choice("objective.ranges", &A::ranges, kActivityRangesNames,
                  "`activity`: the hyperparameter ranges, linear in x: `dp_fts_de` (DP-FTS-DE "
                  "App. B.2.2: batch [128, 512], L2 [1e-6, 10], learning rate [1e-6, 1]) or `fts` "
                  "(FTS sec. 5.2, Google Glass's: batch [20, 60], L2 [1e-6, 1], learning rate "
                  "[0.01, 0.1]); the two papers differ");
  return g;
}

void register_activity_family(schema::Registry<ObjectiveFamilyEntry>& registry) {
  ObjectiveFamilyEntry e = make_family_entry<ActivitySpec>(
      "activity",
      "activity recognition: agent n tunes a logistic regression on UCI HAR subject n + 1, "
      "validation accuracy (DP-FTS-DE sec. 5)",
      activity_keys(), ActivitySpec{},
      [](const ActivitySpec& spec, const std::string& root) {
        ActivitySpec a = spec;
        if (a.data_dir.empty()) a.data_dir = ActivitySpec::default_dir(root);
        // Missing data names datasets.root, FBOSIM_DATA and the download (issue 28).
        if (auto m = missing_data("activity", a.data_dir, root)) throw std::runtime_error(*m);
        return std::make_unique<ActivityFamily>(a);
      },
      [](const ActivitySpec&) {
        return ObjectiveShape{core::DomainKind::box, 3, 0, ""};
      });
  e.needs_data = true;
  e.max_agents = 30;  // the subjects of the official release
  registry.add(std::move(e));
}

}  // namespace fbosim::datasets
