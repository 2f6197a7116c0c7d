#pragma once
// The DP-FTS-DE settings that a config's registry entry built into ExperimentSpec::system, for
// the tests that check what the loader read (issue 40: the spec names no system of its own, so
// ExperimentSpec::fts_de() is gone; the tests ask the system the registry built).
#include "algorithms/systems/fts_de_system.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::testing {

/// The FtsDeConfig of `spec.system`, or null when it is not a DP-FTS-DE system.
inline const systems::FtsDeConfig* fts_de_of(const config::ExperimentSpec& spec) {
  const auto* s = dynamic_cast<const systems::FtsDeSystem*>(spec.system.get());
  return s ? &s->config() : nullptr;
}

}  // namespace fbosim::testing
