#pragma once
// Personal budgets in a run (issue 42 sec. 2; docs/TRUST.md "Personal privacy"). Agent n is
// charged every release it is eligible for, selected or not (the subsampled Gaussian at its
// q_n: its selection is secret), and stops being eligible BEFORE the release that would take it
// over its own budget: before each release, its ledger plus the plan's bound on that release
// (PrivacyPlan::agent_round) plus the events after the last round, under server.accountant at
// the run's delta (the accountant and delta of the `epsilon` column, at every check), must stay
// within its budget; otherwise it stops for good. The check uses public quantities only (the
// config, the charges so far, which depend on the realised dropouts), never whether the agent
// was selected. A stopped agent's data enters no later release (it sends nothing, or a zero
// vector with its noise share under agent-side sampling), so it is charged nothing more; it
// carries on with local TS steps (RunEngine gives it no broadcast).
// The run's charge never exceeds the bound: the actual release is the plan's event or one with
// more noise (padding), so the reported epsilon stays within the budget (tested over random
// budgets, rates and dropouts).
#include <functional>
#include <memory>
#include <vector>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/agent_ledgers.hpp"
#include "algorithms/protocol/algorithm.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::run {

class PersonalStop {
 public:
  /// Empty when the plan has no personal budgets.
  PersonalStop(const config::ExperimentSpec& spec, const protocol::PrivacyPlan& plan);

  /// Whether any agent has a budget.
  bool active() const { return !budgets_.empty(); }
  bool stopped(int agent) const { return stopped_.at(static_cast<std::size_t>(agent)) != 0; }
  /// Stops every eligible agent whose ledger would exceed its budget with the next release;
  /// returns how many stopped now. Throws what AgentLedgers::epsilons throws.
  int before_release(const privacy::AgentLedgers& ledgers);
  /// 1 for each agent still eligible, 0 for a stopped one.
  std::vector<int> eligible() const;

 private:
  std::vector<double> budgets_;
  std::vector<privacy::DpEvent> round_, final_;
  std::vector<char> stopped_;
  std::function<std::unique_ptr<privacy::Accountant>()> make_;
  double delta_;
};

}  // namespace fbosim::run
