#pragma once
// An objective family as a self-describing registry entry (issue 25): its name and summary,
// its settings struct with the objective.* keys that fill it, its defaults where they differ
// from the struct's initialisers (presets), the factory, and the traits that the rest of the
// program asks instead of comparing family names (the domain's kind, dimension and points,
// data files, agents, a known optimum). Plain data; entries are defined in their family's
// folder and listed once, in order, by objective_registry().
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "datasets/objective_family.hpp"
#include "core/box.hpp"
#include "schema/options.hpp"
#include "schema/registry.hpp"

namespace fbosim::datasets {

/// The search space of a family's objectives, which may depend on its keys.
struct ObjectiveShape {
  core::DomainKind domain = core::DomainKind::box;
  int dimension = 0;     ///< the input dimension d of [0,1]^d
  long long points = 0;  ///< the points of a finite domain (0: a box)
  /// The key that sets `points` (or the dimension of a box), for messages and estimates.
  std::string size_key;
  /// Its objectives certify Kusner et al.'s Assumption 2 (Objective::convex_lipschitz_score).
  bool convex_lipschitz_score = false;
};

struct ObjectiveFamilyEntry {
  std::string name;     ///< the `objective.family` value
  std::string summary;  ///< one line: what the objectives are, and their paper
  /// The family's settings (its prototype: default-constructed, plus what the entry fixes)
  /// with its objective.* keys in reading order.
  schema::Options options;
  /// Its defaults where they differ from the settings' initialisers, applied before reading.
  std::vector<schema::Preset> presets;
  /// Builds the family once per experiment (real data is loaded here, from data_root).
  std::function<std::unique_ptr<ObjectiveFamily>(const schema::Options&,
                                                 const std::string& data_root)>
      make;
  std::function<ObjectiveShape(const schema::Options&)> shape;
  bool needs_data = false;  ///< reads files under datasets.root (the same objectives every run)
  /// The most agents the published data has (landmine: 29 fields); 0: any, or as many as the
  /// data found holds.
  int max_agents = 0;
  bool optimum_known = false;  ///< regret can be reported
  /// Makes the first `agents` agents see the family's base function itself, unperturbed (FTS
  /// sec. 5.1: the target agent; algorithm trait unperturbed_agents); null: the family has no
  /// base function shared by perturbed agents.
  std::function<void(schema::Options&, int agents)> unperturbed;
  /// The work of one evaluation in the resource estimate's operations (sim/config/
  /// resource_estimate.hpp), with what it counts; null where an evaluation costs little beside
  /// the algorithm's own work (the synthetic families), or where it is not modelled.
  struct EvaluationWork {
    double operations = 0;
    std::string what;
  };
  std::function<EvaluationWork(const schema::Options&)> evaluation_work;
};

/// An entry from the typed parts of one family.
template <class Spec>
ObjectiveFamilyEntry make_family_entry(
    std::string name, std::string summary, const schema::Group<Spec>& keys, Spec prototype,
    std::function<std::unique_ptr<ObjectiveFamily>(const Spec&, const std::string&)> make,
    std::function<ObjectiveShape(const Spec&)> shape) {
  ObjectiveFamilyEntry e;
  e.name = std::move(name);
  e.summary = std::move(summary);
  e.options = schema::Options(keys, std::move(prototype));
  e.make = [m = std::move(make)](const schema::Options& o, const std::string& root) {
    return m(o.as<Spec>(), root);
  };
  e.shape = [s = std::move(shape)](const schema::Options& o) { return s(o.as<Spec>()); };
  return e;
}

/// Every family, in documentation order (the default, gp_grid, first).
const schema::Registry<ObjectiveFamilyEntry>& objective_registry();

/// objective.split_seed (landmine, activity) and objective.epochs (activity, emnist): keys that
/// several families mount on their own members.
const schema::Group<std::uint64_t>& split_seed_keys();
const schema::Group<int>& epochs_keys();

}  // namespace fbosim::datasets
