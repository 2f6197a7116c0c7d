#include "sim/run/release_charge.hpp"

#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

#include "algorithms/privacy/neighbour_relation.hpp"
#include "algorithms/systems/fts_de_system.hpp"

namespace fbosim::run {

privacy::DpEvent data_dependent_event(const privacy::DpEvent& event) {
  return privacy::replace_one(privacy::without_sampling(event));
}

privacy::DpEvent charged_event(protocol::ScheduleKind kind, const privacy::DpEvent& event) {
  switch (kind) {
    case protocol::ScheduleKind::buffered:
      return privacy::without_sampling(event);
    case protocol::ScheduleKind::periodic:
    case protocol::ScheduleKind::deadline:
    case protocol::ScheduleKind::latest:
      return event;
    case protocol::ScheduleKind::rounds:
      break;
  }
  throw std::logic_error("charged_event: the rounds schedule charges every agent (RunEngine)");
}

ReleaseCharge release_charge(protocol::ScheduleKind kind, const privacy::DpEvent& event,
                             std::vector<int> eligible) {
  return {charged_event(kind, event), std::move(eligible)};
}

ChargeRule charge_rule(const config::ExperimentSpec& spec, const protocol::PrivacyPlan& plan) {
  ChargeRule rule;
  rule.kind = spec.schedule.kind;
  rule.event = plan.round;
  rule.agents = spec.agents;
  rule.data_dependent = spec.timing.data_dependent();
  const systems::FtsDeConfig* c = systems::fts_de_config(spec.system.get());
  if (!c || !c->server || !c->dp || c->mechanism.trust.trust == server::Trust::central) return rule;
  rule.trust = c->mechanism.trust.trust;
  rule.mechanism = std::make_shared<const server::DpMechanism>(c->mechanism, c->features);
  return rule;
}

namespace {

// A secure sum of the `summed` agents (m of them) over a population of N: the Gaussian of the
// noise the adversary does not know, subsampled at q where the agents' coins are secret.
ReleaseCharge secure_sum(const ChargeRule& rule, std::vector<int> summed, int population) {
  const server::DpMechanism::Options& o = rule.mechanism->options();
  const auto m = static_cast<int>(summed.size());
  if (m == 0) return {privacy::DpEvent::noop(), {}};  // the server's own noise: nobody's data
  const server::ShareCalibration shares(o.trust, m);
  // Without dropouts every share is summed: m survivors.
  if (!shares.releases(m)) return {privacy::DpEvent::noop(), {}};  // aborted
  const double z_eff = shares.effective_z(o.noise_multiplier, m);
  if (o.trust.sampled_by == server::Sampler::server)
    return {privacy::DpEvent::gaussian(z_eff), std::move(summed)};
  return {charged_event(rule.kind, privacy::sampled_gaussian(privacy::Sampling::poisson,
                                                             o.sampling_rate, z_eff, population)),
          std::move(summed)};
}

}  // namespace

ReleaseCharge release_charge(const ChargeRule& rule, int j, std::vector<int> pool,
                             const core::RngFactory& streams) {
  switch (rule.trust) {
    case server::Trust::central:
      if (rule.data_dependent) {
        std::vector<int> everyone(static_cast<std::size_t>(rule.agents));
        for (int n = 0; n < rule.agents; ++n) everyone[static_cast<std::size_t>(n)] = n;
        return {data_dependent_event(rule.event), std::move(everyone)};
      }
      return release_charge(rule.kind, rule.event, std::move(pool));
    case server::Trust::local:
      return {privacy::DpEvent::noop(), {}};  // charged per message sent (sent_charge)
    case server::Trust::distributed:
      break;
  }
  const server::DpMechanism& mechanism = *rule.mechanism;
  if (mechanism.options().trust.sampled_by == server::Sampler::agents)
    return secure_sum(rule, std::move(pool), rule.agents);
  // The server's selection, drawn first from the release's stream by the mechanism too.
  core::RngStream srv = streams.stream("server", static_cast<std::uint64_t>(j));
  const std::vector<bool> chosen = mechanism.select(static_cast<std::size_t>(rule.agents), srv);
  std::vector<int> summed;
  for (const int n : pool)
    if (chosen.at(static_cast<std::size_t>(n))) summed.push_back(n);
  return secure_sum(rule, std::move(summed), rule.agents);
}

std::string trust_notion(const ChargeRule& rule) {
  if (!rule.mechanism) return "";
  const char* notion = server::async_trust_notion(rule.mechanism->options().trust);
  return notion ? std::string(notion) + " (docs/TRUST.md)" : "";
}

privacy::DpEvent sent_charge(const ChargeRule& rule) {
  return rule.trust == server::Trust::local ? rule.event : privacy::DpEvent::noop();
}

}  // namespace fbosim::run
