#pragma once
// The per-agent privacy ledgers of a run under an asynchronous schedule (issue 41 sec. 3;
// docs/TIME.md, "Privacy"), and their replay from the time line alone: what `fbosim privacy
// CONFIG` prints for these schedules and what the run reports, the same charges in the same
// order (tested equal).
#include <string>
#include <vector>

#include "algorithms/privacy/agent_ledgers.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::run {

/// N ledgers under server.accountant, then every server.accountants, at the run's delta.
class ScheduleLedgers {
 public:
  explicit ScheduleLedgers(const config::ExperimentSpec& spec);
  void charge(int agent, const privacy::DpEvent& event);
  void charge_all(const privacy::DpEvent& event);
  /// Every agent's epsilon under accountant a (0: server.accountant). Throws what
  /// privacy::AgentLedgers::epsilons throws (a non-finite epsilon among them).
  std::vector<double> epsilons(std::size_t accountant) const;
  /// Per accountant, the largest epsilon over the agents (recomputed after a charge only).
  const std::vector<double>& spent();
  const std::vector<std::string>& names() const { return names_; }

 private:
  privacy::AgentLedgers ledgers_;
  double delta_;
  std::vector<std::string> names_;
  std::vector<double> spent_;
  bool stale_ = false;
};

/// Run `run`'s ledgers from its time line alone, no objective evaluated: the events before
/// the first query to every agent, each planned release's charge (release_charge) to the agents
/// whose message it holds, the events after the last evaluation to every agent.
ScheduleLedgers replay_schedule_ledgers(const config::ExperimentSpec& spec, int run);

}  // namespace fbosim::run
