#pragma once
// The per-agent privacy of a run under personal.* replayed without evaluating any objective
// (issue 42 sec. 2): what `fbosim privacy CONFIG` prints for personal rates and budgets. The
// charges of a release depend on public quantities only (each agent's q_n, the noise, who is
// still eligible, the realised dropouts), never on the messages or on who was selected, so
// the replay releases zero vectors through the run's own mechanism, with the run's dropouts
// (network.* streams of the run) and the run's stop rule (PersonalStop), and charges what it
// charges: the run's agents.csv holds the same epsilons (tested).
#include <vector>

#include "sim/config/experiment_spec.hpp"
#include "sim/run/agent_privacy.hpp"

namespace fbosim::run {

struct PersonalReplay {
  AgentPrivacy ledgers;       ///< against the server (the run's `epsilon` columns)
  std::vector<int> eligible;  ///< 1 for an agent still eligible at the end of the run
};

/// Run `run`'s ledgers: the events before round 0 to every agent, each server release's
/// charges to its eligible agents (stopping each before its budget), the events after the last
/// round to every agent. Under an asynchronous schedule: replay_schedule (the time line's
/// charges, each agent at its own rate, and its stops). Throws std::logic_error unless the
/// algorithm is of the DP-FTS-DE family with personal.* keys.
PersonalReplay replay_personal_ledgers(const config::ExperimentSpec& spec, int run);

}  // namespace fbosim::run
