#pragma once
// Which objective family an experiment optimises (`objective.family`) and its settings; the
// factory builds the family once per experiment (real-world families load their data then).
#include <memory>
#include <string>

#include "datasets/objective_family.hpp"
#include "schema/options.hpp"

namespace fbosim::datasets {

struct ObjectiveSpec {
  /// objective.family: one of objective_registry()'s names
  std::string family = "gp_grid";
  /// datasets.root: where real data lives (default $FBOSIM_DATA, else "data").
  std::string data_root = "data";
  /// The family's own settings as its registry entry reads them (objective_registry(): its
  /// struct with its objective.* keys); the config loader fills it, code sets it from the entry
  /// (`entry.options`, then `settings.as<TheSpec>()`). Empty: the entry's defaults.
  schema::Options settings;
};

/// objective.family (one of objective_registry()'s names) and datasets.root: the experiment's
/// choice of family; each family's own objective.* keys are its registry entry's.
const schema::Group<ObjectiveSpec>& objective_keys();

/// True for the families that need files under data_root (the registry's trait needs_data).
bool is_real_world(const std::string& family);

/// Builds the family through its registry entry, the only way (from `settings`, else from the
/// entry's defaults and presets); throws std::runtime_error naming the path when data is missing
/// or malformed, std::invalid_argument for an unknown family.
std::unique_ptr<ObjectiveFamily> make_objective_family(const ObjectiveSpec& spec);

}  // namespace fbosim::datasets
