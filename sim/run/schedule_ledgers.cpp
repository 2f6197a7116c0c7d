#include "sim/run/schedule_ledgers.hpp"

#include "sim/run/release_charge.hpp"
#include "sim/run/schedule_plan.hpp"

namespace fbosim::run {

AgentPrivacy replay_schedule_ledgers(const config::ExperimentSpec& spec, int run) {
  const protocol::PrivacyPlan plan = spec.system->privacy_plan(spec.agents);
  AgentPrivacy ledgers(spec);
  for (const privacy::DpEvent& e : plan.setup) ledgers.charge_all(e);
  if (!plan.round.as<privacy::NoOp>()) {
    const core::RngFactory streams(spec.seed, static_cast<std::uint64_t>(run));
    const SchedulePlan schedule = plan_schedule(spec, streams, true);
    const ChargeRule rule = charge_rule(spec, plan);
    for (std::size_t j = 0; j < schedule.releases.size(); ++j) {
      std::vector<int> pool;
      for (const auto& m : schedule.releases[j].messages) pool.push_back(m.first);
      const ReleaseCharge c = release_charge(rule, static_cast<int>(j), std::move(pool), streams);
      for (const int n : c.agents) ledgers.charge(n, c.event);
    }
    // Every message sent (evaluations 0 .. rounds - 1), charged to its sender (local).
    const privacy::DpEvent sent = sent_charge(rule);
    if (!sent.as<privacy::NoOp>())
      for (const timeline::Completion& c : schedule.order)
        if (c.evaluation < spec.rounds) ledgers.charge(c.agent, sent);
  }
  for (const privacy::DpEvent& e : plan.final) ledgers.charge_all(e);
  return ledgers;
}

}  // namespace fbosim::run
