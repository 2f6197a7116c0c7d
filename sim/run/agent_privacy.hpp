#pragma once
// The per-agent privacy of one run (issues 41 and 42): one privacy::AgentLedgers charged by
// the run's schedule and trust model, composed under server.accountant (the `epsilon`
// columns) and every server.accountants (their extra columns) at the run's delta. The run's
// epsilon is the largest agent's (every agent's guarantee holds at it); agents.csv has each
// agent's, summary.csv the median and the 90th percentile beside it.
//
// Used only where agents may be charged unevenly (ExperimentSpec::per_agent_ledgers): where
// every agent is charged for every release, the run's single PrivacyLedger is exact for all and
// costs one composition instead of one per distinct count vector.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/agent_ledgers.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::run {

class AgentPrivacy {
 public:
  /// spec.agents empty ledgers. Throws std::invalid_argument when server.accountant is not a
  /// bound (as PrivacyLedger does) or an accountant name is unknown.
  explicit AgentPrivacy(const config::ExperimentSpec& spec);

  int agents() const { return ledgers_.agents(); }
  /// Charges `count` copies of `event` to agent n (NoOp charges nothing).
  void charge(int agent, const privacy::DpEvent& event, long long count = 1);
  /// Charges every agent (a release every agent was eligible for, setup and final events).
  void charge_all(const privacy::DpEvent& event, long long count = 1);

  /// Every agent's epsilon under accountant a (0: server.accountant, then server.accountants in
  /// order), recomputed only after a charge. Throws std::runtime_error naming the accountant
  /// and `where` when one is not finite (never a silent infinity), and what AgentLedgers throws.
  const std::vector<double>& epsilons(std::size_t accountant, const std::string& where);
  /// Per accountant, the largest agent's epsilon: what the `epsilon` columns hold.
  std::vector<double> spent(const std::string& where);
  /// max, median and 90th percentile of the agents' epsilons under server.accountant.
  privacy::EpsilonSpread spread(const std::string& where);

  const privacy::AgentLedgers& ledgers() const { return ledgers_; }

 private:
  double delta_;
  std::vector<std::string> names_;  ///< server.accountant, then server.accountants
  privacy::AgentLedgers ledgers_;
  std::vector<std::vector<double>> cache_;  ///< per accountant; empty: stale
};

}  // namespace fbosim::run
