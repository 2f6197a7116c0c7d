#pragma once
// agents_time.csv (issue 41 sec. 3; docs/TIME.md, "Outputs"): the per-agent epsilons on
// summary_time.csv's grid under a schedule other than rounds, with per-agent ledgers. The
// epsilon at grid instant t composes the setup events, every planned release at an instant
// <= t (release_charge to the agents whose message it holds, after the stop rules and personal
// budgets: schedule_stops, as replay_schedule_ledgers and the run charge them) and, once t reaches the run's end (its last release or completion),
// the events after the last evaluation. Per run and grid point it writes the largest agent's
// epsilon, the median and the 90th percentile (privacy::spread), never one row per agent: at
// 100,000 agents and 101 points that would be 10^7 rows a run; agents.csv keeps every agent's
// final epsilon. The charges come from the time line replayed, never from data.
#include <string>
#include <vector>

#include "algorithms/privacy/dp_event.hpp"
#include "sim/config/experiment_spec.hpp"
#include "sim/timeline/tick.hpp"

namespace fbosim::run {

/// One release's charge at its instant.
struct TimedCharge {
  timeline::Tick time = 0;
  privacy::DpEvent event;
  std::vector<int> agents;
};

/// Run `run`'s planned charges in time order, and the instant of its end.
struct RunCharges {
  int run = 0;
  std::vector<TimedCharge> releases;
  timeline::Tick end = 0;
};

/// Run `run`'s charges replayed from its time line alone (plan_schedule, schedule_stops).
RunCharges replay_run_charges(const config::ExperimentSpec& spec, int run);

class AgentTimePrivacy {
 public:
  explicit AgentTimePrivacy(const config::ExperimentSpec& spec);

  /// Run `run`'s charges from its replayed time line.
  void add_run(int run);

  /// agents_time.csv on `grid`: run,time,epsilon_max,epsilon_median,epsilon_p90 (time in
  /// seconds; epsilons under server.accountant at the run's delta). Throws what
  /// AgentPrivacy::spread throws (an epsilon that is not finite, named by run and time).
  std::string csv(const std::vector<timeline::Tick>& grid) const;

 private:
  const config::ExperimentSpec& spec_;
  std::vector<RunCharges> runs_;
};

}  // namespace fbosim::run
