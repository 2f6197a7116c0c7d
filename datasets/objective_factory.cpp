#include "datasets/objective_factory.hpp"

#include <stdexcept>

#include "datasets/objective_family_entry.hpp"
#include "schema/group.hpp"

namespace fbosim::datasets {

bool is_real_world(const std::string& family) {
  const ObjectiveFamilyEntry* e = objective_registry().find(family);
  return e && e->needs_data;
}

const schema::Group<ObjectiveSpec>& objective_keys() {
  static const auto g =
      schema::Group<ObjectiveSpec>{}
          .choice(
              "objective.family", &ObjectiveSpec::family,
              [] { return objective_registry().names(); },
              "`gp_grid` (Fig. 2, 4-6, 12a), `heterogeneous` (Fig. 7), `gp_box` (continuous "
              "[0,1]^dim); real data: `landmine`, `activity`, `emnist` (Fig. 3, 8-12b); "
              "`gp_grid2d`: PO-GP-UCB's synthetic dataset (a GP sample on a k x k grid, "
              "Kharkovskii et al. sec. 4)")
          .text("datasets.root", &ObjectiveSpec::data_root,
                "where real data lives: `landmine/LandmineData.mat`, `har/UCI HAR Dataset/`, "
                "`femnist_digits/` (`tools/fetch_datasets.sh` downloads them). The environment "
                "variable sets the default; the YAML and `--set` override it")
          .note("$FBOSIM_DATA, else data")
          .check([](const ObjectiveSpec& o, schema::Problems& p) {
            if (o.data_root.empty()) p.push_back({"datasets.root", "must not be empty"});
          });
  return g;
}

std::unique_ptr<ObjectiveFamily> make_objective_family(const ObjectiveSpec& spec) {
  const ObjectiveFamilyEntry* entry = objective_registry().find(spec.family);
  if (!entry) throw std::invalid_argument("objective.family: unknown family '" + spec.family + "'");
  if (spec.settings.has_value()) return entry->make(spec.settings, spec.data_root);
  schema::Options defaults = entry->options;
  defaults.apply(entry->presets);
  return entry->make(defaults, spec.data_root);
}

}  // namespace fbosim::datasets
