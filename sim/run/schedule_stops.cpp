#include "sim/run/schedule_stops.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/privacy/agent_ledgers.hpp"

namespace fbosim::run {

std::vector<int> ScheduleStops::eligible(int agents, int releases) const {
  std::vector<int> out(static_cast<std::size_t>(agents), 1);
  if (stopped_before.empty()) return out;
  for (std::size_t n = 0; n < out.size(); ++n) out[n] = stopped_before[n] < releases ? 0 : 1;
  return out;
}

namespace {

// The distinct events the releases charge, and each agent's index among them: the mechanism's
// event for everyone, or with personal rates the subsampled Gaussian at the agent's q_n; both
// under the schedule's charged_event (buffered: without the sampling).
struct AgentEvents {
  std::vector<privacy::DpEvent> events;
  std::vector<std::size_t> of;  // per agent
};

AgentEvents agent_events(const config::ExperimentSpec& spec, const protocol::PrivacyPlan& plan) {
  AgentEvents out;
  const auto n = static_cast<std::size_t>(spec.agents);
  if (spec.timing.data_dependent()) {  // every agent, every release (release_charge)
    if (!plan.agent_round.empty())
      throw std::logic_error("schedule_stops: personal rates with durations that depend on data");
    out.events.push_back(data_dependent_event(plan.round));
    out.of.assign(n, 0);
    return out;
  }
  if (plan.agent_round.empty()) {
    out.events.push_back(charged_event(spec.schedule.kind, plan.round));
    out.of.assign(n, 0);
    return out;
  }
  if (plan.agent_round.size() != n)
    throw std::logic_error("schedule_stops: one personal event per agent is needed");
  for (const privacy::DpEvent& e : plan.agent_round) {
    const privacy::DpEvent c = charged_event(spec.schedule.kind, e);
    const auto at = std::find(out.events.begin(), out.events.end(), c);
    out.of.push_back(static_cast<std::size_t>(at - out.events.begin()));
    if (at == out.events.end()) out.events.push_back(c);
  }
  return out;
}

// The look-ahead ledgers of the stop rules: composed exactly as the run composes its own (the
// same charges in the same order), so a check's epsilon is the one the run will report.
class StopLedgers {
 public:
  StopLedgers(const config::ExperimentSpec& spec, const protocol::PrivacyPlan& plan)
      : ledgers_(spec.agents),
        make_([name = spec.server.accountant] { return privacy::make_accountant(name); }),
        delta_(spec.delta()),
        final_(plan.final) {
    for (const privacy::DpEvent& e : plan.setup) ledgers_.charge_all(e);
  }
  // Agent n's epsilon after `event` (number `index` of the agents' events) and, if `final`, the
  // events after the last evaluation. Remembered per (count vector, event, final): the kinds
  // are only ever appended to, so a count vector over them fixes the composition, and agents
  // charged alike are composed once.
  double with(int agent, std::size_t index, const privacy::DpEvent& event, bool final) {
    auto key = std::make_tuple(ledgers_.counts(agent), index, final);
    if (const auto at = seen_.find(key); at != seen_.end()) return at->second;
    std::vector<privacy::DpEvent> extra{event};
    if (final) extra.insert(extra.end(), final_.begin(), final_.end());
    const double e = ledgers_.epsilon_with(agent, extra, make_, delta_);
    seen_.emplace(std::move(key), e);
    return e;
  }
  std::vector<double> epsilons() const {
    if (ledgers_.kinds().empty()) return std::vector<double>(std::size_t(ledgers_.agents()), 0.0);
    return ledgers_.epsilons(make_, delta_);
  }
  void charge(const ReleaseCharge& c) {
    for (const int n : c.agents) ledgers_.charge(n, c.event);
  }

 private:
  privacy::AgentLedgers ledgers_;
  std::function<std::unique_ptr<privacy::Accountant>()> make_;
  double delta_;
  std::vector<privacy::DpEvent> final_;
  std::map<std::tuple<std::vector<long long>, std::size_t, bool>, double> seen_;
};

// The agents a release charges under the trusted server: those with a message in it, or, where
// the durations depend on data, every agent (release_charge).
std::vector<int> charged_agents(const config::ExperimentSpec& spec, const PlannedRelease& release) {
  std::vector<int> out;
  if (spec.timing.data_dependent()) {
    for (int n = 0; n < spec.agents; ++n) out.push_back(n);
    return out;
  }
  for (const auto& m : release.messages) out.push_back(m.first);
  return out;
}

}  // namespace

// Under a trust model: release_charge's charges of every release the server makes (its pool
// the agents with a message in it), no budget (refused by the config).
void trust_charges(const config::ExperimentSpec& spec, const protocol::PrivacyPlan& plan,
                   const SchedulePlan& schedule, const core::RngFactory& streams,
                   ScheduleStops& out) {
  if (plan.budget || !plan.agent_budgets.empty())
    throw std::logic_error("schedule_stops: a budget with a trust model other than central");
  const ChargeRule rule = charge_rule(spec, plan);
  for (int j = 0; j < out.server_releases; ++j) {
    std::vector<int> pool;
    for (const auto& m : schedule.releases[static_cast<std::size_t>(j)].messages)
      pool.push_back(m.first);
    ReleaseCharge c = release_charge(rule, j, std::move(pool), streams);
    if (!c.agents.empty())
      out.releases[static_cast<std::size_t>(j)].charges.push_back(std::move(c));
  }
}

ScheduleStops schedule_stops(const config::ExperimentSpec& spec, const protocol::PrivacyPlan& plan,
                             const SchedulePlan& schedule, const core::RngFactory& streams) {
  ScheduleStops out;
  const auto planned = static_cast<int>(schedule.releases.size());
  out.releases.resize(schedule.releases.size());
  out.server_releases = std::clamp(plan.server_rounds, 0, planned);  // server.stop_p
  for (int j = out.server_releases; j < planned; ++j)
    out.releases[static_cast<std::size_t>(j)].released = false;
  if (!plan.round.as<privacy::NoOp>() && charge_rule(spec, plan).trust != server::Trust::central) {
    trust_charges(spec, plan, schedule, streams, out);
    return out;
  }
  const bool budgets = !plan.agent_budgets.empty();
  if (budgets) out.stopped_before.assign(static_cast<std::size_t>(spec.agents), INT_MAX);
  const bool private_releases = !plan.round.as<privacy::NoOp>();
  const AgentEvents events = agent_events(spec, plan);
  std::optional<StopLedgers> ahead;
  std::vector<double> eps;  // with server.budget: every agent's epsilon so far
  if (plan.budget || budgets) ahead.emplace(spec, plan);
  if (plan.budget) {
    // The budget covers what the ledgers hold when a release is decided; an event composed after
    // the last evaluation could still pass it (DP-FTS-DE has none).
    if (!plan.final.empty())
      throw std::logic_error(
          fmt::format("algorithm {}: server.budget with events after the last evaluation",
                      spec.system->name()));
    eps = ahead->epsilons();
    const double most = *std::max_element(eps.begin(), eps.end());
    if (!(most <= *plan.budget))
      throw std::runtime_error(fmt::format(
          "server.budget: the releases before the first query already spend epsilon {} > {}", most,
          *plan.budget));
  }
  for (int j = 0; j < planned; ++j) {
    ChargedRelease& c = out.releases[static_cast<std::size_t>(j)];
    if (j >= out.server_releases) {
      c.released = false;
      continue;
    }
    if (!private_releases) continue;
    std::vector<std::vector<int>> due(events.events.size());
    for (const int n : charged_agents(spec, schedule.releases[static_cast<std::size_t>(j)])) {
      const auto i = static_cast<std::size_t>(n);
      const privacy::DpEvent& e = events.events[events.of[i]];
      if (budgets && out.stopped_before[i] == INT_MAX && std::isfinite(plan.agent_budgets[i]) &&
          !(ahead->with(n, events.of[i], e, true) <= plan.agent_budgets[i]))  // NaN stops too
        out.stopped_before[i] = j;
      if (budgets && out.stopped_before[i] <= j) {
        c.withheld.push_back(n);
        continue;
      }
      due[events.of[i]].push_back(n);
    }
    for (std::size_t e = 0; e < due.size(); ++e)
      if (!due[e].empty()) c.charges.push_back({events.events[e], std::move(due[e])});
    if (plan.budget) {
      // The largest agent's epsilon with this release: the others' are unchanged.
      std::vector<double> next = eps;
      for (const ReleaseCharge& r : c.charges)
        for (const int n : r.agents) {
          const auto i = static_cast<std::size_t>(n);
          next[i] = ahead->with(n, events.of[i], r.event, false);
        }
      if (!(*std::max_element(next.begin(), next.end()) <= *plan.budget)) {
        out.server_releases = j;
        c = ChargedRelease{false, {}, {}};
        continue;
      }
      eps = std::move(next);
    }
    if (ahead)
      for (const ReleaseCharge& r : c.charges) ahead->charge(r);
  }
  return out;
}

ScheduleReplay replay_schedule(const config::ExperimentSpec& spec, int run) {
  const protocol::PrivacyPlan plan = spec.system->privacy_plan(spec.agents);
  ScheduleReplay out{AgentPrivacy(spec), std::vector<int>(static_cast<std::size_t>(spec.agents), 1),
                     0, 0};
  for (const privacy::DpEvent& e : plan.setup) out.ledgers.charge_all(e);
  if (!plan.round.as<privacy::NoOp>()) {
    const core::RngFactory streams(spec.seed, static_cast<std::uint64_t>(run));
    const SchedulePlan schedule = plan_schedule(spec, streams, true);
    const ScheduleStops stops = schedule_stops(spec, plan, schedule, streams);
    for (const ChargedRelease& r : stops.releases)
      for (const ReleaseCharge& c : r.charges)
        for (const int n : c.agents) out.ledgers.charge(n, c.event);
    // Every message sent (evaluations 0 .. rounds - 1), charged to its sender (local).
    const privacy::DpEvent sent = sent_charge(charge_rule(spec, plan));
    if (!sent.as<privacy::NoOp>())
      for (const timeline::Completion& c : schedule.order)
        if (c.evaluation < spec.rounds) out.ledgers.charge(c.agent, sent);
    out.releases = static_cast<int>(stops.releases.size());
    out.server_releases = stops.server_releases;
    out.eligible = stops.eligible(spec.agents, out.releases);
  }
  for (const privacy::DpEvent& e : plan.final) out.ledgers.charge_all(e);
  return out;
}

}  // namespace fbosim::run
