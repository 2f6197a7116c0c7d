#pragma once
// The per-agent privacy of a run under an asynchronous schedule replayed from its time line
// alone (issue 41 sec. 3; docs/TIME.md, "Privacy"): what `fbosim privacy CONFIG` prints for
// these schedules. The run (AsyncEngine) charges its AgentPrivacy with the same charges in the
// same order, so the epsilons are equal (tested).
#include "sim/config/experiment_spec.hpp"
#include "sim/run/agent_privacy.hpp"

namespace fbosim::run {

/// Run `run`'s ledgers from its time line alone, no objective evaluated: the events before
/// the first query to every agent, each planned release's charges (release_charge to the agents
/// whose message it holds, after the stop rules and personal budgets: schedule_stops), the
/// events after the last evaluation to every agent.
AgentPrivacy replay_schedule_ledgers(const config::ExperimentSpec& spec, int run);

}  // namespace fbosim::run
