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
