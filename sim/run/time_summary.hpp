#pragma once
// The outputs on simulated time of a schedule other than `rounds` (issue 41 sec. 1;
// docs/TIME.md, "Outputs"):
//   summary_time.csv   on a grid of output.time_grid instants from 0 to output.time_end (default:
//                      the last completion of a measured agent over the runs), the mean and
//                      standard error of the measured agents' regret and best value, each agent's
//                      value being the one after its last evaluation completed at or before the
//                      instant (an agent with none yet is left out: the `n` column counts those
//                      in); standard errors as summary.csv's (standard_error)
//   time_to_target.csv with output.target_regret: the first instant at which a run's mean
//                      regret over its measured agents (every one having completed an
//                      evaluation) is at most the target; the mean and s.e. over the runs that
//                      reach it, and how many never do (within the run; a regret that is not
//                      known, an objective without a known optimum, never reaches it)
// The instants come from the run's time line replayed (plan_schedule from the timing streams
// alone, as `fbosim privacy` does): it never depends on data, so a run resumed from a
// checkpoint or reused by a grown experiment needs nothing more than summary.csv's numbers.
#include <optional>
#include <string>
#include <vector>

#include "sim/config/experiment_spec.hpp"
#include "sim/run/run_result.hpp"
#include "sim/run/schedule_plan.hpp"
#include "sim/timeline/tick.hpp"

namespace fbosim::run {

/// One measured agent of one run: the completion instant of each of its evaluations 0, 1, ...
/// (increasing) and its best value and regret after it.
struct AgentCurve {
  std::vector<timeline::Tick> time;
  std::vector<double> best_f, regret;
};

/// The measured agents' curves of a run whose time line is `plan` (agent m's evaluation k
/// completes at plan.evaluations[m][k].complete with res.best_f(k, m)). Throws std::logic_error
/// when the measured agents are not every agent of the plan.
std::vector<AgentCurve> agent_curves(const SchedulePlan& plan, const RunResult& res);

/// `points` instants from 0 to `end`: end * i / (points - 1), rounded down to a tick.
std::vector<timeline::Tick> time_grid(timeline::Tick end, int points);

/// The value of a step curve at t: values[k] of the last time[k] <= t; NaN before time[0].
double value_at(const std::vector<timeline::Tick>& time, const std::vector<double>& values,
                timeline::Tick t);

/// The first instant at which every curve has a point and the mean of their regrets is at most
/// `target`; none if never.
std::optional<timeline::Tick> time_to_target(const std::vector<AgentCurve>& curves, double target);

class TimeSummary {
 public:
  explicit TimeSummary(const config::ExperimentSpec& spec);

  /// Run res.run's curves from its replayed time line.
  void add_run(const RunResult& res);
  /// A run's curves as they are (one per measured agent, the same number in every run).
  void add_curves(std::vector<AgentCurve> curves);

  /// The grid's instants: output.time_grid points from 0 to output.time_end (default: the last
  /// completion over the runs added).
  std::vector<timeline::Tick> grid() const;
  /// summary_time.csv: time,mean_regret,se_regret,mean_best_f,se_best_f,n (time in seconds).
  std::string csv() const;
  /// time_to_target.csv: target_regret,runs,reached,never,mean_time,se_time (seconds), or ""
  /// without output.target_regret.
  std::string target_csv() const;

 private:
  const config::ExperimentSpec& spec_;
  std::vector<std::vector<AgentCurve>> runs_;
  std::vector<std::optional<timeline::Tick>> reached_;
};

}  // namespace fbosim::run
