#pragma once
// A selectable `algorithm` as a self-describing registry entry (issue 25): its name and summary,
// its config struct with the keys that fill it (schema::Options), its defaults where they
// differ from the struct's initialisers (presets), its conditions across keys (validate), the
// builder of the protocol::Algorithm, and its traits. Plain data: the config reader in sim/
// applies the schema; nothing here sees YAML. Entries are defined beside their systems
// (algorithms/systems) and listed once, in order, by systems::algorithm_registry().
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/protocol/algorithm.hpp"
#include "algorithms/protocol/experiment_facts.hpp"
#include "algorithms/protocol/schedule_kind.hpp"
#include "schema/options.hpp"
#include "schema/problem.hpp"

namespace fbosim::protocol {

/// Facts about an algorithm that the experiment's reader and docs use.
struct AlgorithmTraits {
  /// Its agents choose among the points of a finite domain (a grid or a table).
  bool needs_finite_domain = false;
  int min_agents = 1;  ///< the fewest agents.count it runs with
  /// On synthetic families the first this many agents see the base function f itself (FTS's
  /// target, sec. 5.1), the others f plus their perturbation.
  int unperturbed_agents = 0;
  /// The schedules (`schedule.kind`) it runs under; another is a config error that gives
  /// `schedules_why`. Every algorithm runs the papers' `rounds`.
  std::vector<ScheduleKind> schedules{ScheduleKind::rounds};
  /// Why it runs under no other schedule than those listed (the config error's reason).
  std::string schedules_why;
  /// Its server aggregates messages linearly and can weight them by age (schedule.age_weight;
  /// protocol::Mechanism::release_scaled).
  bool age_weights = false;
  /// Its agents can run several evaluations at once (schedule.workers): Thompson sampling
  /// without a server, each sample given the completed evaluations only.
  bool workers = false;
};

/// Defaults of the experiment's accounting keys that follow from the built algorithm (the
/// releases it makes), where they differ from the experiment's own.
struct AccountingDefaults {
  std::optional<std::string> accountant;  ///< server.accountant
  std::optional<double> delta;            ///< server.delta
};

struct AlgorithmEntry {
  std::string name;     ///< the `algorithm` value
  std::string summary;  ///< one line: the system and its paper
  /// Its config (default-constructed) with its keys in reading order.
  schema::Options options;
  /// Its defaults where they differ from the config's initialisers, applied before reading.
  std::vector<schema::Preset> presets;
  /// Its defaults of the experiment's keys (e.g. server.accountant), applied before reading.
  std::vector<schema::Preset> experiment_presets;
  /// Conditions across keys, after every key was read: (key, message) for each that fails.
  std::function<void(const schema::Options&, const ExperimentFacts&, schema::Problems&)> validate;
  /// The algorithm from its config; throws schema::ProblemError naming a key.
  std::function<std::shared_ptr<const Algorithm>(const schema::Options&, const ExperimentFacts&)>
      build;
  /// The accounting defaults that follow from the built algorithm (null: none).
  std::function<AccountingDefaults(const Algorithm&, int agents)> accounting;
  /// The keys whose values set its privacy events, the likeliest culprit of a non-finite epsilon
  /// first (named with their values when a run's epsilon is not finite).
  std::vector<std::string> privacy_keys;
  AlgorithmTraits traits;
  /// A key whose value the algorithm's name fixes (validate refuses a config that contradicts
  /// it), with the reason as messages give it.
  struct Fixed {
    std::string path;
    std::string value;  ///< as a config writes it
    std::string why;    ///< e.g. "which runs without DP"
  };
  /// What its name fixes: `--grid algorithm=...` sets these keys for the points of this name
  /// where the config says otherwise (sim/sweep/algorithm_grid), instead of failing.
  std::vector<Fixed> fixed;
};

/// An entry from the typed parts of one system: its Config's keys and default (the
/// initialisers, plus what the entry fixes that is no key, e.g. the registry name), validate
/// and build on the Config itself.
template <class Config>
AlgorithmEntry make_algorithm_entry(
    std::string name, std::string summary, const schema::Group<Config>& keys, Config defaults,
    std::function<void(const Config&, const ExperimentFacts&, schema::Problems&)> validate,
    std::function<std::shared_ptr<const Algorithm>(Config, const ExperimentFacts&)> build) {
  AlgorithmEntry e;
  e.name = std::move(name);
  e.summary = std::move(summary);
  e.options = schema::Options(keys, std::move(defaults));
  if (validate)
    e.validate = [v = std::move(validate)](const schema::Options& o, const ExperimentFacts& f,
                                           schema::Problems& p) { v(o.as<Config>(), f, p); };
  e.build = [b = std::move(build)](const schema::Options& o, const ExperimentFacts& f) {
    return b(o.as<Config>(), f);
  };
  return e;
}

}  // namespace fbosim::protocol
