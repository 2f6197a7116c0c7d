#pragma once
// sweep.csv and sweep_plan.csv (docs/SWEEPS.md). A row is one point of the grid:
//   point,<one column per swept key>,mean_regret,se_regret,mean_best_f,se_best_f,
//   epsilon,delta,epsilon_...(the privacy columns of summary.csv),[server_stop,]
//   clipped_fraction,seconds,dir
// server_stop only when some point has a stop rule (server.budget, server.stop_p): the first
// round its server did not aggregate (`rounds`: it aggregated every round; empty for a point
// without a stop rule).
// `point` is the index in grid order; `dir` is the point's directory relative to the file's
// folder. sweep_plan.csv lists every point of the full grid with no metric columns.
#include <string>
#include <utility>
#include <vector>

namespace fbosim::sweep {

struct SweepRow {
  int point = 0;
  std::vector<std::string> values;                           ///< one per key (YAML text)
  std::vector<std::pair<std::string, std::string>> metrics;  ///< (column, text)
  std::string dir;

  /// The text of metric `column`, "" when absent.
  std::string metric(const std::string& column) const;
};

struct SweepTable {
  std::vector<std::string> keys;
  std::vector<SweepRow> rows;
  bool results = false;  ///< a sweep.csv (metric columns even without rows), not a plan

  /// The metric columns: the four utility columns, every epsilon* and delta column in order of
  /// first appearance over the rows, server_stop where some row has one, clipped_fraction and
  /// seconds (none for a plan).
  std::vector<std::string> metric_columns() const;
  /// The table's CSV text; a missing metric is an empty cell.
  std::string text() const;
  /// Writes text() atomically (AtomicFile).
  void write(const std::string& path) const;
  /// Reads a table written by write(); throws std::runtime_error naming the path if malformed.
  static SweepTable read(const std::string& path);
};

}  // namespace fbosim::sweep
