#include "sim/run/personal_replay.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/systems/fts_de_system.hpp"
#include "sim/run/network_model.hpp"
#include "sim/run/personal_stop.hpp"
#include "sim/run/privacy_ledger.hpp"
#include "sim/run/schedule_stops.hpp"

namespace fbosim::run {

PersonalReplay replay_personal_ledgers(const config::ExperimentSpec& spec, int run) {
  const systems::FtsDeConfig* c = systems::fts_de_config(spec.system.get());
  const protocol::PrivacyPlan plan = spec.system->privacy_plan(spec.agents);
  if (!c || !c->dp || plan.agent_round.empty())
    throw std::logic_error("replay_personal_ledgers: no personal rates or budgets");
  if (spec.schedule.kind != protocol::ScheduleKind::rounds) {
    // The asynchronous schedules: every charge and stop follows from the time line alone.
    ScheduleReplay replay = replay_schedule(spec, run);
    return {std::move(replay.ledgers), std::move(replay.eligible)};
  }
  PersonalReplay out{AgentPrivacy(spec), {}};
  for (const privacy::DpEvent& e : plan.setup) out.ledgers.charge_all(e);
  PersonalStop stop(spec, plan);
  const server::DpMechanism mechanism(c->mechanism, c->features);
  const auto n = static_cast<std::size_t>(spec.agents);
  // Any weights serve: the charges do not depend on them (a positive entry in every row).
  const Eigen::MatrixXd weights =
      Eigen::MatrixXd::Constant(c->subregions, spec.agents, 1.0 / spec.agents);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(c->features);
  const NetworkModel network(spec.network);
  const core::RngFactory rf(spec.seed, static_cast<std::uint64_t>(run));
  const int stop_round = server_stop(spec, plan);
  for (int t = 0; t < spec.rounds && t < stop_round; ++t) {
    stop.before_release(out.ledgers.ledgers());
    server::Messages messages(n, nullptr);
    for (int a = 0; a < spec.agents; ++a) {
      // As the engine: every agent reports; a stopped one sends nothing, or a zero vector.
      if (stop.active() && stop.stopped(a) && !plan.stopped_sends_zero) continue;
      const auto delay = network.delay(rf, a, t);
      if (!delay) continue;
      if (spec.network.deadline > 0 && *delay > spec.network.deadline) continue;
      messages[static_cast<std::size_t>(a)] = &zero;
    }
    core::RngStream rng = rf.stream("server", static_cast<std::uint64_t>(t));
    const server::WeightedRelease w = mechanism.release(messages, weights, rng);
    if (!w.charges) throw std::logic_error("replay_personal_ledgers: a release without charges");
    protocol::for_each_charge(w.charges->server, spec.agents,
                              [&](int a, const privacy::DpEvent& e) {
                                if (!stop.active() || !stop.stopped(a)) out.ledgers.charge(a, e);
                              });
  }
  for (const privacy::DpEvent& e : plan.final) out.ledgers.charge_all(e);
  out.eligible = stop.active() ? stop.eligible() : std::vector<int>(n, 1);
  return out;
}

}  // namespace fbosim::run
