#include "datasets/objective_factory.hpp"

#include <stdexcept>

#include "datasets/missing_data.hpp"
#include "datasets/objective_family_entry.hpp"
#include "sim/schema/group.hpp"

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
  if (spec.settings.has_value()) {
    const ObjectiveFamilyEntry* entry = objective_registry().find(spec.family);
    if (!entry)
      throw std::invalid_argument("objective.family: unknown family '" + spec.family + "'");
    return entry->make(spec.settings, spec.data_root);
  }
  // A spec built in code from the typed members (the datasets' own tests).
  if (spec.family == "gp_grid" || spec.family == "heterogeneous" || spec.family == "gp_box" ||
      spec.family == "gp_grid2d") {
    SyntheticSpec s = spec.synthetic;
    s.family = spec.family;
    return std::make_unique<SyntheticFamily>(std::move(s));
  }
  if (spec.family == "landmine") {
    LandmineSpec l = spec.landmine;
    if (l.path.empty()) l.path = LandmineSpec::default_path(spec.data_root);
    if (auto m = missing_data(spec.family, l.path, spec.data_root)) throw std::runtime_error(*m);
    return std::make_unique<LandmineFamily>(l);
  }
  if (spec.family == "emnist") {
    EmnistSpec e = spec.emnist;
    if (e.data_dir.empty()) e.data_dir = EmnistSpec::default_dir(spec.data_root);
    if (auto m = missing_data(spec.family, e.data_dir, spec.data_root))
      throw std::runtime_error(*m);
    return std::make_unique<EmnistFamily>(e);
  }
  if (spec.family == "activity") {
    ActivitySpec a = spec.activity;
    if (a.data_dir.empty()) a.data_dir = ActivitySpec::default_dir(spec.data_root);
    if (auto m = missing_data(spec.family, a.data_dir, spec.data_root))
      throw std::runtime_error(*m);
    return std::make_unique<ActivityFamily>(a);
  }
  // Any other registered family, built in code without settings: the entry's defaults.
  if (const ObjectiveFamilyEntry* e = objective_registry().find(spec.family)) {
    schema::Options o = e->options;
    o.apply(e->presets);
    return e->make(o, spec.data_root);
  }
  throw std::invalid_argument("objective.family: unknown family '" + spec.family + "'");
}

}  // namespace fbosim::datasets
