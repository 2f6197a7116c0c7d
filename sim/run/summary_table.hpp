#pragma once
// summary.csv: per round, the mean and standard error of the measured agents' regret and best
// value over every run, and the privacy spent (the largest over the runs: every run releases
// the same events today; the largest stays a bound on each run's privacy if they ever differ).
// Filled run by run in run order; also the headline numbers `fbosim run` prints. Where a stop
// rule ends the server's aggregation (server.budget, server.stop_p: the server.csv column
// `aggregating`), a last column `aggregating`: per round t < T the fraction of runs whose server
// aggregated round t's messages (1 or 0: the stop depends on the config alone), empty at T;
// under an asynchronous schedule, whose server.csv rows are releases, whether release t was made.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/experiment_spec.hpp"
#include "sim/run/run_result.hpp"

namespace fbosim::run {

struct ExperimentSummary;

/// Mean and standard error of the finite entries of a set of values (NaN, NaN for none).
std::pair<double, double> mean_se(const std::vector<double>& v);
/// summary.csv's mean and standard error of one round's values, `per_run` consecutive values per
/// run: the mean over every finite value; the s.e. over the runs' means (NaN with fewer than two
/// runs: one replication has none), or, over_pairs, over every value as if independent (agents
/// of one run share its function, so this one is several times narrower).
std::pair<double, double> summary_mean_se(const std::vector<double>& v, std::size_t per_run,
                                          bool over_pairs);

class SummaryTable {
 public:
  explicit SummaryTable(const config::ExperimentSpec& spec);

  /// Adds one run's best values, regrets, epsilons and server counts.
  void add_run(const RunResult& res);
  /// The text of summary.csv: header and one row per round (delta and the extra epsilon
  /// columns as ResultFiles gives them; `delta_times_n`, delta x N, where the delta is per
  /// agent: above 0.1 the run warned, issue 39).
  std::string csv(const std::string& delta, const std::string& extra_columns) const;
  /// The final round's numbers, the epsilon of everything released, the clipped fraction and
  /// the fallbacks into `out`.
  void fill(ExperimentSummary& out) const;
  /// The first round whose messages some run's server did not aggregate; none without a stop
  /// rule or when the server aggregated every round.
  std::optional<int> server_stop() const;

 private:
  int rounds_;
  bool se_over_pairs_;
  /// per round: values over (run, agent)
  std::vector<std::vector<double>> regret_, best_f_;
  std::size_t per_run_ = 0;  ///< the measured agents of a run (the same in every run)
  std::vector<double> epsilon_;
  /// Per-agent ledgers (ExperimentSpec::per_agent_ledgers): per round, the largest over runs of
  /// the agents' median and 90th percentile; empty otherwise (no columns).
  std::vector<double> epsilon_median_, epsilon_p90_;
  std::vector<std::vector<double>> extra_epsilon_;
  long long messages_ = 0, clipped_ = 0;
  int fallbacks_ = 0;
  bool tracks_aggregating_ = false;  ///< server.csv has the `aggregating` column
  std::vector<int> aggregated_;      ///< per round < T: runs whose server aggregated it
  int runs_ = 0;
  std::string delta_times_n_;  ///< the `delta_times_n` cell (spec.delta_times_agents(); "": none)
};

}  // namespace fbosim::run
