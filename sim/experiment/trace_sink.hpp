#pragma once
// Where the engine's rows go (design note "protocols": rows go to a sink, not formatted inside
// the engine). CsvTraceSink appends trace.csv rows to a run's result.
#include <string>

#include <Eigen/Core>

namespace fbosim::sim {

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

}  // namespace fbosim::sim
