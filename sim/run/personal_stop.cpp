#include "sim/run/personal_stop.hpp"

#include <cmath>
#include <stdexcept>

#include "algorithms/privacy/accountant_registry.hpp"

namespace fbosim::run {

PersonalStop::PersonalStop(const config::ExperimentSpec& spec, const protocol::PrivacyPlan& plan)
    : budgets_(plan.agent_budgets),
      round_(plan.agent_round),
      final_(plan.final),
      stopped_(plan.agent_budgets.size(), 0),
      make_([name = spec.server.accountant] { return privacy::make_accountant(name); }),
      delta_(budgets_.empty() ? 0.0 : spec.delta()) {
  if (!budgets_.empty() && (budgets_.size() != static_cast<std::size_t>(spec.agents) ||
                            round_.size() != budgets_.size()))
    throw std::logic_error("personal budgets: one budget and one bound per agent are needed");
}

int PersonalStop::before_release(const privacy::AgentLedgers& ledgers) {
  if (!active()) return 0;
  // Every eligible agent's ledger as it would be after the release and the events after the
  // last round; agents without a budget never stop (their charges are the run's).
  privacy::AgentLedgers next = ledgers;
  for (int n = 0; n < next.agents(); ++n) {
    const auto i = static_cast<std::size_t>(n);
    if (stopped_[i] || !std::isfinite(budgets_[i])) continue;
    next.charge(n, round_[i]);
  }
  for (const privacy::DpEvent& e : final_) next.charge_all(e);
  const std::vector<double> eps = next.epsilons(make_, delta_);
  int now = 0;
  for (std::size_t i = 0; i < budgets_.size(); ++i)
    if (!stopped_[i] && std::isfinite(budgets_[i]) && !(eps[i] <= budgets_[i])) {
      stopped_[i] = 1;
      ++now;
    }
  return now;
}

std::vector<int> PersonalStop::eligible() const {
  std::vector<int> out;
  for (const char s : stopped_) out.push_back(s ? 0 : 1);
  return out;
}

}  // namespace fbosim::run
