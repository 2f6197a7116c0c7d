#pragma once
// What one run produces, in memory, before the sinks write it.
#include <string>
#include <vector>

#include <Eigen/Core>

namespace fbosim::sim {

/// One row of server.csv.
struct ServerRow {
  int round;
  long long time;  ///< simulated time (ticks) at which the round closed
  int received, selected, clipped;
  double noise_std;
  double epsilon;                     ///< after this round's release (0 without DP)
  std::vector<double> extra_epsilon;  ///< the same under server.accountants, in order
};

struct RunResult {
  int run = 0;
  int dim = 1;            ///< input dimension (columns x0..x{dim-1} of the trace)
  std::string trace_csv;  ///< trace.csv rows of this run (no header)
  std::vector<ServerRow> server;
  /// best_f(t, n): best true value of agent n after round t; regret likewise (NaN if the
  /// optimum is unknown). (rounds + 1) x N.
  Eigen::MatrixXd best_f;
  Eigen::MatrixXd regret;
  std::vector<double> epsilon;  ///< privacy spent before each round's queries (rounds + 1)
  /// extra_epsilon[a][t]: the same under server.accountants[a].
  std::vector<std::vector<double>> extra_epsilon;
  int messages = 0;          ///< messages received by the server, all rounds
  int clipped = 0;           ///< of which clipped
  int fallbacks = 0;         ///< BLR sampling fallbacks (spec section 2)
  double setup_seconds = 0;  ///< wall time drawing the objectives and shared features
};

}  // namespace fbosim::sim
