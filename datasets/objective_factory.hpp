#pragma once
// Which objective family an experiment optimises (`objective.family`) and its settings; the
// factory builds the family once per experiment (real-world families load their data then).
#include <memory>
#include <string>

#include "datasets/activity/activity_objective.hpp"
#include "datasets/emnist/emnist_objective.hpp"
#include "datasets/landmine/landmine_objective.hpp"
#include "datasets/objective_family.hpp"
#include "datasets/synthetic/synthetic_family.hpp"
#include "sim/schema/options.hpp"

namespace fbosim::datasets {

struct ObjectiveSpec {
  /// objective.family: one of objective_registry()'s names
  std::string family = "gp_grid";
  /// datasets.root: where real data lives (default $FBOSIM_DATA, else "data").
  std::string data_root = "data";
  SyntheticSpec synthetic;  ///< the synthetic families' settings (synthetic.family == family)
  ActivitySpec activity;    ///< activity (data_dir is derived from data_root when empty)
  LandmineSpec landmine;    ///< landmine (path is derived from data_root when empty)
  EmnistSpec emnist;        ///< emnist (data_dir is derived from data_root when empty)
  /// The family's own settings as its registry entry reads them (objective_registry(): its
  /// struct with its objective.* keys); the config loader fills it. When it holds no struct,
  /// make_objective_family builds from the typed members above (tests that set them directly).
  schema::Options settings;
};

/// objective.family (one of objective_registry()'s names) and datasets.root: the experiment's
/// choice of family; each family's own objective.* keys are its registry entry's.
const schema::Group<ObjectiveSpec>& objective_keys();

/// True for the families that need files under data_root (the registry's trait needs_data).
bool is_real_world(const std::string& family);

/// Builds the family through its registry entry (from `settings`, else from the typed members of
/// the synthetic and real-data families, else from the entry's defaults); throws std::runtime_error
/// naming the path when data is missing or malformed, std::invalid_argument for an unknown family.
std::unique_ptr<ObjectiveFamily> make_objective_family(const ObjectiveSpec& spec);

}  // namespace fbosim::datasets
