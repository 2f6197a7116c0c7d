#pragma once
// What one run produces, in memory, before the sinks write it.
#include <string>
#include <vector>

#include <Eigen/Core>

namespace fbosim::run {

/// One row of server.csv.
struct ServerRow {
  int round;
  long long time;  ///< simulated time (ticks) at which the round closed
  /// The mechanism's columns (RunResult::server_columns), formatted.
  std::vector<std::string> stats;
  double epsilon;                     ///< after this round's release (0 without DP)
  std::vector<double> extra_epsilon;  ///< the same under server.accountants, in order
};

struct RunResult {
  int run = 0;
  int dim = 1;            ///< input dimension (columns x0..x{dim-1} of the trace)
  std::string trace_csv;  ///< trace.csv rows of this run (no header)
  std::string
      release_csv;  ///< release.csv rows of this run (no header; algorithms that release values)
  /// The server's statistics columns (between `time` and `epsilon` in server.csv); empty when
  /// the algorithm has no server.
  std::vector<std::string> server_columns;
  std::vector<ServerRow> server;
  /// best_f(t, k): best true value of the k-th measured agent after round t; regret likewise
  /// (NaN if the optimum is unknown). (rounds + 1) x measured agents.
  Eigen::MatrixXd best_f;
  Eigen::MatrixXd regret;
  /// Privacy spent by the events before each round's queries (setup, earlier rounds), rounds + 1
  /// entries; the last (round T) after everything, the final release included.
  std::vector<double> epsilon;
  /// extra_epsilon[a][t]: the same under server.accountants[a].
  std::vector<std::vector<double>> extra_epsilon;
  /// Per-agent ledgers only (ExperimentSpec::per_agent_ledgers; otherwise empty): the
  /// agents.csv value columns after `run,round,time,agent` (`epsilon` first), the rows of this
  /// run (no header), and per summary row (rounds + 1) the median and 90th percentile of the
  /// agents' epsilons, `epsilon` being their maximum.
  std::vector<std::string> agent_columns;
  std::string agents_csv;
  std::vector<double> epsilon_median, epsilon_p90;
  double final_epsilon = 0;    ///< after everything, the final release included (= epsilon.back())
  int messages = 0;            ///< messages used by the server, all rounds
  int clipped = 0;             ///< of which clipped
  int fallbacks = 0;           ///< BLR sampling fallbacks (BlrPosterior::sample)
  double setup_seconds = 0;    ///< wall time drawing the objectives and building the run's parts
  double history_seconds = 0;  ///< of which making histories (0 when reused from another run)
  /// Wall time of each round (its queries and the server's release), rounds + 1 entries:
  /// timing.csv, the only output besides provenance.yaml that depends on the machine.
  std::vector<double> round_seconds;
};

}  // namespace fbosim::run
