#include "sim/run/agent_time_privacy.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/run/agent_privacy.hpp"
#include "sim/run/release_charge.hpp"
#include "sim/run/schedule_plan.hpp"
#include "sim/run/schedule_stops.hpp"

namespace fbosim::run {

RunCharges replay_run_charges(const config::ExperimentSpec& spec, int run) {
  // As replay_schedule_ledgers, each charge kept with its instant.
  const protocol::PrivacyPlan plan = spec.system->privacy_plan(spec.agents);
  RunCharges out;
  out.run = run;
  const core::RngFactory streams(spec.seed, static_cast<std::uint64_t>(run));
  const SchedulePlan schedule = plan_schedule(spec, streams, true);
  for (const auto& mine : schedule.evaluations)
    if (!mine.empty()) out.end = std::max(out.end, mine.back().complete);
  const ScheduleStops stops = schedule_stops(spec, plan, schedule, streams);
  const privacy::DpEvent sent = sent_charge(charge_rule(spec, plan));
  const bool per_message = !sent.as<privacy::NoOp>();
  const auto& order = schedule.order;
  std::size_t next = 0;
  // The messages sent at instants <= t (local: each to its sender), as one charge per instant.
  const auto sent_until = [&](timeline::Tick t) {
    while (per_message && next < order.size() && order[next].time <= t) {
      TimedCharge c{order[next].time, sent, {}};
      for (; next < order.size() && order[next].time == c.time; ++next)
        if (order[next].evaluation < spec.rounds) c.agents.push_back(order[next].agent);
      if (!c.agents.empty()) out.releases.push_back(std::move(c));
    }
  };
  for (std::size_t j = 0; j < schedule.releases.size(); ++j) {
    const PlannedRelease& r = schedule.releases[j];
    out.end = std::max(out.end, r.time);
    if (plan.round.as<privacy::NoOp>()) continue;
    sent_until(r.time);  // a completion at a release's instant comes before it
    if (!out.releases.empty() && r.time < out.releases.back().time)
      throw std::logic_error("agents_time.csv: planned releases out of time order");
    // The run's charges after its stop rules and personal budgets (none after a stop).
    for (const ReleaseCharge& c : stops.releases[j].charges)
      out.releases.push_back({r.time, c.event, c.agents});
  }
  sent_until(std::numeric_limits<timeline::Tick>::max());
  return out;
}

AgentTimePrivacy::AgentTimePrivacy(const config::ExperimentSpec& spec) : spec_(spec) {}

void AgentTimePrivacy::add_run(int run) { runs_.push_back(replay_run_charges(spec_, run)); }

std::string AgentTimePrivacy::csv(const std::vector<timeline::Tick>& grid) const {
  const protocol::PrivacyPlan plan = spec_.system->privacy_plan(spec_.agents);
  std::string out = "run,time,epsilon_max,epsilon_median,epsilon_p90\n";
  for (const RunCharges& run : runs_) {
    AgentPrivacy ledgers(spec_);
    for (const privacy::DpEvent& e : plan.setup) ledgers.charge_all(e);
    bool final_charged = false;
    std::size_t next = 0;
    for (const timeline::Tick t : grid) {
      const auto& releases = run.releases;
      for (; next < releases.size() && releases[next].time <= t; ++next)
        for (const int n : releases[next].agents) ledgers.charge(n, releases[next].event);
      if (!final_charged && t >= run.end) {
        for (const privacy::DpEvent& e : plan.final) ledgers.charge_all(e);
        final_charged = true;
      }
      const privacy::EpsilonSpread s = ledgers.spread(
          fmt::format("in agents_time.csv, run {} at {} s", run.run, timeline::seconds(t)));
      out += fmt::format("{},{},{},{},{}\n", run.run, timeline::seconds(t), s.max, s.median, s.p90);
    }
  }
  return out;
}

}  // namespace fbosim::run
