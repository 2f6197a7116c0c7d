#pragma once
// Where the engine's rows go (design note "protocols": rows go to a sink, not formatted inside
// the engine). CsvTraceSink appends trace.csv rows to a run's result.
#include <string>

#include <Eigen/Core>

#include "algorithms/protocol/algorithm.hpp"

namespace fbosim::run {

/// One query of one agent: a row of trace.csv.
struct QueryRow {
  int run, agent, round;
  const Eigen::VectorXd& x;  ///< d-vector
  double y, f, best_f;
  double regret;  ///< NaN when the optimum is unknown (an empty cell)
  const char* source;
};

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void query(const QueryRow& row) = 0;
};

/// run,agent,round,x0..x{d-1},y,f,best_f,regret,source (shortest round-trip numbers).
class CsvTraceSink final : public TraceSink {
 public:
  explicit CsvTraceSink(std::string& out) : out_(out) {}
  void query(const QueryRow& row) override;

 private:
  std::string& out_;
};

/// The header of release.csv for points of dimension dim:
/// run,agent,quantity,mechanism,release_epsilon,release_delta,sensitivity,value,nonprivate,
/// x0..x{d-1},f,regret,evaluations (release_epsilon/_delta: the row's own release; the run's
/// total, every release composed, is summary.csv's epsilon).
std::string release_csv_header(int dim);
/// Appends one release.csv row (empty cells for the row's empty fields; shortest round-trip
/// numbers). Throws std::invalid_argument for a point of another dimension.
void append_release_row(std::string& out, int run, const protocol::ReleaseRow& row, int dim);

}  // namespace fbosim::run
