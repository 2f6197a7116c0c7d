#include "datasets/objective_factory.hpp"

#include <filesystem>
#include <stdexcept>

namespace fbosim::datasets {

bool is_real_world(const std::string& family) {
  return family == "landmine" || family == "activity" || family == "emnist";
}

std::unique_ptr<ObjectiveFamily> make_objective_family(const ObjectiveSpec& spec) {
  if (spec.family == "gp_grid" || spec.family == "heterogeneous" || spec.family == "gp_box" ||
      spec.family == "gp_grid2d") {
    SyntheticSpec s = spec.synthetic;
    s.family = spec.family;
    return std::make_unique<SyntheticFamily>(std::move(s));
  }
  const std::filesystem::path root(spec.data_root);
  if (spec.family == "landmine") {
    LandmineSpec l = spec.landmine;
    if (l.path.empty()) l.path = (root / "landmine" / "LandmineData.mat").string();
    return std::make_unique<LandmineFamily>(l);
  }
  if (spec.family == "emnist") {
    EmnistSpec e = spec.emnist;
    if (e.data_dir.empty()) e.data_dir = (root / "femnist_digits").string();
    return std::make_unique<EmnistFamily>(e);
  }
  if (spec.family == "activity") {
    ActivitySpec a = spec.activity;
    if (a.data_dir.empty()) a.data_dir = (root / "har" / "UCI HAR Dataset").string();
    return std::make_unique<ActivityFamily>(a);
  }
  throw std::invalid_argument("objective.family: unknown family '" + spec.family + "'");
}

}  // namespace fbosim::datasets
