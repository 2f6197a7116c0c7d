#include "sim/run/privacy_ledger.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/privacy/accountant_registry.hpp"

namespace fbosim::run {

PrivacyLedger::PrivacyLedger(const config::ExperimentSpec& spec) : delta_(spec.delta()) {
  accountants_.push_back(privacy::make_accountant(spec.server.accountant));
  if (!accountants_[0]->is_bound())  // config validation refuses it; never an `epsilon` below
    throw std::invalid_argument(fmt::format(
        "server.accountant: '{}' is an approximation, not a bound; it cannot fill the epsilon "
        "column",
        spec.server.accountant));
  for (const std::string& a : spec.server.accountants)
    accountants_.push_back(privacy::make_accountant(a));
  spent_.assign(accountants_.size(), 0.0);
}

void PrivacyLedger::compose(const privacy::DpEvent& event, const std::string& where) {
  if (event.as<privacy::NoOp>()) return;  // nothing private was released
  for (std::size_t a = 0; a < accountants_.size(); ++a) {
    accountants_[a]->compose(event);
    spent_[a] = accountants_[a]->epsilon(delta_).epsilon;
    // Config validation bounds the whole run's epsilon (run_events); never a silent infinity.
    if (!std::isfinite(spent_[a]))
      throw std::runtime_error(fmt::format(
          "the {} accountant gives no finite epsilon ({}) at delta = {} after {} {}",
          accountants_[a]->name(), spent_[a], delta_, privacy::to_string(event), where));
  }
}

std::vector<std::string> PrivacyLedger::names() const {
  std::vector<std::string> out;
  for (const auto& a : accountants_) out.push_back(a->name());
  return out;
}

int server_stop(const config::ExperimentSpec& spec, const protocol::PrivacyPlan& plan) {
  const int stop = std::clamp(plan.server_rounds, 0, spec.rounds);
  if (!plan.budget) return stop;
  const double budget = *plan.budget;
  // The budget covers what the ledger holds when a round is decided; an event composed after
  // the last round could still pass it, so none may exist (DP-FTS-DE has none).
  if (!plan.final.empty())
    throw std::logic_error(fmt::format(
        "algorithm {}: server.budget with events after the last round", spec.system->name()));
  // One ledger composes exactly what the run's will (the events before round 0, then one
  // server release per round, in the same order, so its epsilon is the one the run will
  // report, bit for bit) one round ahead: a round aggregates only if the ledger's epsilon after
  // it stays within the budget. The decision depends on the config alone, not on the data.
  const double delta = spec.delta();
  const std::unique_ptr<privacy::Accountant> ahead =
      privacy::make_accountant(spec.server.accountant);
  for (const privacy::DpEvent& e : plan.setup)
    if (!e.as<privacy::NoOp>()) ahead->compose(e);
  if (ahead->steps() > 0 && !(ahead->epsilon(delta).epsilon <= budget))
    throw std::runtime_error(
        fmt::format("server.budget: the releases before round 0 already spend epsilon {} > {}",
                    ahead->epsilon(delta).epsilon, budget));
  if (plan.round.as<privacy::NoOp>()) return stop;  // the rounds spend nothing
  for (int t = 0; t < stop; ++t) {
    ahead->compose(plan.round);
    if (!(ahead->epsilon(delta).epsilon <= budget)) return t;  // NaN stops too
  }
  return stop;
}

LedgerForecast forecast_ledger(const config::ExperimentSpec& spec) {
  LedgerForecast f;
  f.plan = spec.system->privacy_plan(spec.agents);
  if (!f.plan.bounds_dropouts && (spec.network.dropout > 0 || spec.network.deadline > 0))
    throw std::invalid_argument(
        "no forecast bounds this config's epsilon: with server.trust: distributed and "
        "server.dropout_padding: 0, messages lost or late (network.dropout, network.deadline) "
        "leave less noise in the sum than the plan's release, and the survivors are charged it; "
        "set server.dropout_padding > 0 (each release then carries at least the plan's noise) "
        "or read the run's agents.csv");
  PrivacyLedger ledger(spec);
  f.accountants = ledger.names();
  const std::size_t n = f.accountants.size();
  f.epsilon.assign(n, std::vector<double>(static_cast<std::size_t>(spec.rounds) + 1, 0.0));
  const auto record = [&](int row) {
    for (std::size_t a = 0; a < n; ++a)
      f.epsilon[a][static_cast<std::size_t>(row)] = ledger.spent()[a];
  };
  // The run engine's order: setup; row t recorded before round t's release; the final events
  // after the last round, in the last row.
  for (const privacy::DpEvent& e : f.plan.setup) ledger.compose(e, "before round 0");
  f.server_stop = server_stop(spec, f.plan);
  for (int t = 0; t <= spec.rounds; ++t) {
    record(t);
    if (t < spec.rounds && t < f.server_stop)
      ledger.compose(f.plan.round, fmt::format("round {}'s server release", t));
  }
  f.at_stop = ledger.spent();
  for (const privacy::DpEvent& e : f.plan.final) ledger.compose(e, "after the last round");
  record(spec.rounds);
  return f;
}

}  // namespace fbosim::run
