// The objective families, listed once in documentation order. An explicit list rather than
// static self-registration: the order is the order of the docs and of the choices in messages,
// and a linker never drops a family whose file nothing else refers to. The list is generated
// by CMake from each family folder's declaration (datasets/builtin_families.hpp), so that a new
// family touches only its folder.
#include "datasets/builtin_families.hpp"
#include "datasets/objective_family_entry.hpp"
#include "schema/group.hpp"
#include "schema/registry.hpp"

namespace fbosim::datasets {

const schema::Registry<ObjectiveFamilyEntry>& objective_registry() {
  static const schema::Registry<ObjectiveFamilyEntry> r = [] {
    schema::Registry<ObjectiveFamilyEntry> out;
    register_builtin_families(out);  // gp_grid, heterogeneous, gp_box, gp_grid2d, landmine, ...
    return out;
  }();
  return r;
}

const schema::Group<std::uint64_t>& split_seed_keys() {
  static const auto g = schema::Group<std::uint64_t>{}.integer(
      "objective.split_seed", schema::Lens<std::uint64_t, std::uint64_t>::whole(),
      schema::Range::at_least(0),
      "`landmine` (with `objective.split: seeded`), `activity`: seed of each agent's stratified "
      "50/50 train/validation split (the same in every run and for every algorithm)");
  return g;
}

const schema::Group<int>& epochs_keys() {
  static const auto g = schema::Group<int>{}.integer(
      "objective.epochs", schema::Lens<int, int>::whole(), schema::Range::closed(1, 100000),
      "training passes per evaluation: `activity` SGD epochs over the training half ([choice]: "
      "not stated in the papers), `emnist` the CNN's epochs ([choice])");
  return g;
}

}  // namespace fbosim::datasets
