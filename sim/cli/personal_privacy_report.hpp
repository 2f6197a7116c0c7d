#pragma once
// `fbosim privacy CONFIG` for personal rates and budgets (personal.*, issue 42 sec. 2).
#include "sim/cli/commands.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::cli {

/// Every agent's epsilon (server.accountant at the run's delta) replayed per run without
/// evaluating anything (run::replay_personal_ledgers): text, per agent the median and the 95th
/// percentile over the runs (nearest rank; equal where the spend is not random); CSV, one row
/// per run and agent: run,agent,tier,q,budget,epsilon,eligible.
void run_personal_config(const PrivacyArgs& a, const config::ExperimentSpec& spec);

}  // namespace fbosim::cli
