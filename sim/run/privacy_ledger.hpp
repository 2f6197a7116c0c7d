#pragma once
// The privacy ledger of a run (issue 29): the accountants that compose its events, the stop
// rules' decision, and the whole ledger forecast from the config alone. The run engine composes
// through PrivacyLedger and decides the stop with server_stop; `fbosim privacy CONFIG` calls
// forecast_ledger, which replays the same protocol::PrivacyPlan through the same two, so the
// epsilon it prints is the one the run reports, bit for bit (the engine checks that the parts
// it built release exactly the plan's events).
#include <memory>
#include <string>
#include <vector>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/protocol/algorithm.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::run {

/// server.accountant (first: it fills `epsilon`), then every server.accountants, each holding
/// everything composed so far.
class PrivacyLedger {
 public:
  /// Throws std::invalid_argument when server.accountant is an approximation (config validation
  /// refuses it; an `epsilon` column is never below the bound).
  explicit PrivacyLedger(const config::ExperimentSpec& spec);

  /// Composes one release (a NoOp composes nothing) and recomputes every epsilon at the run's
  /// delta. Throws std::runtime_error naming the accountant, the event and `where` (e.g. "in
  /// run 3") when one is not finite: never a silent infinity.
  void compose(const privacy::DpEvent& event, const std::string& where);

  /// epsilon of everything composed so far, per accountant (server.accountant first).
  const std::vector<double>& spent() const { return spent_; }
  /// The accountants' names, in the order of spent().
  std::vector<std::string> names() const;

 private:
  double delta_;
  std::vector<std::unique_ptr<privacy::Accountant>> accountants_;
  std::vector<double> spent_;
};

/// The first round whose messages the server does not aggregate: the plan's server_rounds
/// (server.stop_p) capped at spec.rounds, and with server.budget the first round whose release
/// would take server.accountant's epsilon (at the run's delta, after the plan's setup events
/// and every earlier round's release, composed one at a time as the run composes them) past the
/// budget. Throws std::runtime_error when the setup events alone exceed the budget, and
/// std::logic_error for a budget with events after the last round (they could pass it).
int server_stop(const config::ExperimentSpec& spec, const protocol::PrivacyPlan& plan);

/// A run's ledger known before it runs.
struct LedgerForecast {
  protocol::PrivacyPlan plan;
  /// server_stop(spec, plan): meaningful where plan.round is private (a server without DP, or
  /// none, composes nothing in any round).
  int server_stop = 0;
  std::vector<std::string> accountants;  ///< server.accountant, then server.accountants
  /// Per accountant: the epsilon of summary.csv's rows 0..rounds (row t: everything released
  /// before round t's server release; the last row includes the events after the last round).
  std::vector<std::vector<double>> epsilon;
  /// Per accountant: the epsilon after the last round the server aggregated (before the events
  /// after the last round): the epsilon at the stop.
  std::vector<double> at_stop;
};

/// Composes spec.system->privacy_plan(agents) as a run does: the setup events, one release per
/// round before server_stop, the final events; throws what PrivacyLedger and server_stop throw.
LedgerForecast forecast_ledger(const config::ExperimentSpec& spec);

}  // namespace fbosim::run
