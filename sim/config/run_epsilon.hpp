#pragma once
// The epsilon a run will report, known before it runs: the algorithm's run_events (setup, every
// round, the final release) composed by an accountant at the run's delta. Config validation
// refuses a run for which any of its accountants (server.accountant, server.accountants) gives no
// finite epsilon, before any output exists, naming the keys that set the releases and their
// values: `server.noise_multiplier=1e-300` used to run and write `epsilon inf` with exit 0.
#include <string>
#include <vector>

#include "sim/config/config_reader.hpp"
#include "sim/config/experiment_spec.hpp"
#include "schema/record.hpp"

namespace fbosim::config {

/// "A x 58, B": the events in order, equal neighbours counted (an event per agent would make a
/// long line).
std::string events_text(const std::vector<privacy::DpEvent>& events);

/// epsilon at spec.delta() of spec.system->run_events(agents, rounds) under `accountant` (0 when
/// nothing is private). Throws what the accountant throws where it cannot answer.
double run_epsilon(const ExperimentSpec& spec, const std::string& accountant);

/// Throws ConfigError unless server.accountant and every server.accountants give a finite
/// epsilon for the run. The message names the file (source), `keys` with their values in
/// `resolved` (the resolved config read so far)
/// (the keys that set the releases, the likeliest culprit first), delta, the accountant and its
/// key, and the events.
void check_run_epsilon(const std::string& source, const schema::Record& resolved,
                       const ExperimentSpec& spec, const std::vector<std::string>& keys);

}  // namespace fbosim::config
