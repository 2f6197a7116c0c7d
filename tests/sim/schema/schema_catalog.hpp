#pragma once
// The catalog of every declared key, built from the registries and the experiment's groups as
// the config reader will build it (tests of tests/sim/schema).
#include "algorithms/systems/algorithm_registry.hpp"
#include "datasets/objective_family_entry.hpp"
#include "sim/schema/catalog.hpp"
#include "sim/config/experiment_keys.hpp"

namespace fbosim::schema_test {

inline std::vector<schema::KeyDoc> experiment_docs(const config::ExperimentSpec& e = {}) {
  std::vector<schema::KeyDoc> out;
  for (const auto* g : {&config::experiment_keys(), &config::accounting_keys(), &config::network_keys()}) {
    const auto docs = g->docs(e);
    out.insert(out.end(), docs.begin(), docs.end());
  }
  return out;
}

/// The experiment's keys, every algorithm's (presets applied) and every family's.
inline schema::Catalog schema_catalog() {
  schema::Catalog c;
  c.add(schema::Owner::experiment, "", experiment_docs());
  for (const protocol::AlgorithmEntry& a : systems::algorithm_registry()) {
    schema::Options o = a.options;
    o.apply(a.presets);
    c.add(schema::Owner::algorithm, a.name, o.docs());
    for (const schema::Preset& p : a.experiment_presets) {
      config::ExperimentSpec e;
      config::accounting_keys().set(e, p.path, p.value);
      for (const schema::KeyDoc& d : config::accounting_keys().docs(e))
        if (d.path == p.path) c.add_default(p.path, a.name, d.default_value);
    }
  }
  for (const datasets::ObjectiveFamilyEntry& f : datasets::objective_registry()) {
    schema::Options o = f.options;
    o.apply(f.presets);
    c.add(schema::Owner::family, f.name, o.docs());
  }
  return c;
}

}  // namespace fbosim::schema_test
