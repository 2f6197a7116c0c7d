#include "sim/run/schedule_ledgers.hpp"

#include <algorithm>

#include "algorithms/privacy/accountant_registry.hpp"
#include "sim/run/release_charge.hpp"
#include "sim/run/schedule_plan.hpp"

namespace fbosim::run {

ScheduleLedgers::ScheduleLedgers(const config::ExperimentSpec& spec)
    : ledgers_(spec.agents), delta_(spec.delta()) {
  names_.push_back(spec.server.accountant);
  names_.insert(names_.end(), spec.server.accountants.begin(), spec.server.accountants.end());
  spent_.assign(names_.size(), 0.0);
}

void ScheduleLedgers::charge(int agent, const privacy::DpEvent& event) {
  if (event.as<privacy::NoOp>()) return;
  ledgers_.charge(agent, event);
  stale_ = true;
}

void ScheduleLedgers::charge_all(const privacy::DpEvent& event) {
  if (event.as<privacy::NoOp>()) return;
  ledgers_.charge_all(event);
  stale_ = true;
}

std::vector<double> ScheduleLedgers::epsilons(std::size_t accountant) const {
  const std::string& name = names_.at(accountant);
  return ledgers_.epsilons([&] { return privacy::make_accountant(name); }, delta_);
}

const std::vector<double>& ScheduleLedgers::spent() {
  if (!stale_) return spent_;
  for (std::size_t a = 0; a < names_.size(); ++a) {
    const std::vector<double> e = epsilons(a);
    spent_[a] = *std::max_element(e.begin(), e.end());
  }
  stale_ = false;
  return spent_;
}

ScheduleLedgers replay_schedule_ledgers(const config::ExperimentSpec& spec, int run) {
  const protocol::PrivacyPlan plan = spec.system->privacy_plan(spec.agents);
  ScheduleLedgers ledgers(spec);
  for (const privacy::DpEvent& e : plan.setup) ledgers.charge_all(e);
  if (!plan.round.as<privacy::NoOp>()) {
    const core::RngFactory streams(spec.seed, static_cast<std::uint64_t>(run));
    const SchedulePlan schedule = plan_schedule(spec, streams, true);
    for (const PlannedRelease& r : schedule.releases) {
      std::vector<int> eligible;
      for (const auto& m : r.messages) eligible.push_back(m.first);
      const ReleaseCharge c = release_charge(spec.schedule.kind, plan.round, std::move(eligible));
      for (const int n : c.agents) ledgers.charge(n, c.event);
    }
  }
  for (const privacy::DpEvent& e : plan.final) ledgers.charge_all(e);
  return ledgers;
}

}  // namespace fbosim::run
