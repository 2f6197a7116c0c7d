#pragma once
// The headline numbers of a finished experiment, in a file of their own: run_experiment
// (experiment_runner.hpp) returns them and SummaryTable (summary_table.hpp) fills them, and
// neither includes the other's file for them.
#include <optional>
#include <string>

namespace fbosim::run {

/// Headline numbers of a finished experiment (printed by `fbosim run`).
struct ExperimentSummary {
  std::string out_dir;
  int runs = 0, rounds = 0, agents = 0;
  double final_mean_regret = 0, final_se_regret = 0;
  double final_mean_best_f = 0, final_se_best_f = 0;
  double epsilon = 0;
  double clipped_fraction = 0;
  /// The first round whose messages the server did not aggregate (server.budget,
  /// server.stop_p); none when it aggregated every round or no stop rule is configured.
  std::optional<int> server_stop;
  int fallbacks = 0;
  int resumed_runs = 0;  ///< finished runs reused from an interrupted attempt
  double seconds = 0;
};

}  // namespace fbosim::run
