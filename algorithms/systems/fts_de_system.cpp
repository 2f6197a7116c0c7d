#include "algorithms/systems/fts_de_system.hpp"

#include <limits>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/agents/exploration_schedule.hpp"
#include "algorithms/agents/fts_de_agent.hpp"
#include "algorithms/agents/local_ts_estimate.hpp"
#include "algorithms/protocol/experiment_facts.hpp"
#include "algorithms/protocol/resource_estimate.hpp"
#include "algorithms/server/buffered_release_audit.hpp"
#include "algorithms/server/privatized_mechanism.hpp"
#include "algorithms/server/region_aggregator.hpp"
#include "algorithms/server/server_release_audit.hpp"
#include "algorithms/server/trust_release_audit.hpp"

namespace fbosim::systems {

using protocol::key_value;

FtsDeSystem::FtsDeSystem(FtsDeConfig config) : config_(std::move(config)) {
  de::WeightSchedule::validate(config_.weights);
  if (config_.dp) server::DpMechanism(config_.mechanism, config_.features);  // validates
}

protocol::RunParts FtsDeSystem::build(const protocol::RunInputs& in) const {
  const FtsDeConfig& c = config_;
  const core::Domain& domain = *in.domain;
  // A finite domain's size is known only now (a table's, when its file is read): an initial
  // design larger than its points would repeat points (docs/OBJECTIVES.md). GP-UCB's agents
  // check the same when they are built.
  if (domain.is_grid() && c.agent.init_points > domain.grid.rows())
    throw std::invalid_argument(fmt::format(
        "agents.init_points: {} initial points, but the objective's domain has {} points; set "
        "agents.init_points to at most {}",
        c.agent.init_points, domain.grid.rows(), domain.grid.rows()));
  core::RngStream shared_rng = in.streams->stream("rff.shared");
  auto ctx = std::make_shared<const agents::SharedContext>(
      domain,
      agents::shared_features(domain.dim, c.features, c.rff_lengthscale, c.rff_lengthscales,
                              c.agent.local.kernel, shared_rng),
      de::Partition(domain.dim, c.subregions));
  protocol::RunParts parts;
  std::vector<int> region;
  for (int n = 0; n < in.agents; ++n) {
    auto agent = std::make_unique<agents::FtsDeAgent>(n, ctx, c.agent);
    region.push_back(agent->region());
    parts.agents.push_back(std::move(agent));
    parts.measured.push_back(n);
  }
  if (c.server) {
    auto aggregator = std::make_shared<const server::RegionAggregator>(
        de::WeightSchedule(c.weights), region, c.subregions, c.features);
    if (c.dp) {
      parts.server = std::make_unique<server::PrivatizedMechanism>(aggregator, c.mechanism);
    } else {
      parts.server = std::make_unique<server::PlainMechanism>(aggregator);
    }
  }
  return parts;
}

std::vector<protocol::StatColumn> FtsDeSystem::server_columns() const {
  using protocol::StatColumn;
  std::vector<StatColumn> out = {StatColumn::received, StatColumn::selected, StatColumn::clipped,
                                 StatColumn::noise_std};
  if (config_.stop.any()) out.push_back(StatColumn::aggregating);
  if (config_.server && config_.dp && config_.mechanism.clipping == server::Clipping::adaptive)
    out.push_back(StatColumn::clip_norm);
  return out;
}

bool FtsDeSystem::charges_per_agent() const {
  return config_.server && config_.dp &&
         (config_.mechanism.trust.trust != server::Trust::central ||
          !config_.mechanism.personal.rates.empty());
}

std::vector<privacy::DpEvent> FtsDeSystem::possible_events(int agents) const {
  if (!config_.server || !config_.dp) return {};
  return {server::DpMechanism::event(config_.mechanism, static_cast<std::size_t>(agents))};
}

namespace {

// Each agent's bound per release and budget (personal.*): the subsampled Gaussian (q_n, z)
// where the coins are secret (central; distributed with agent-side sampling, whose noise with
// padding or without dropouts is at least z: ShareCalibration::effective_z), the trust model's
// q = 1 event where the server knows the selection.
void personal_plan(const server::DpMechanism::Options& m, protocol::PrivacyPlan& plan) {
  const server::PersonalPrivacy& p = m.personal;
  const auto population = static_cast<int>(p.rates.size());
  const bool secret =
      m.trust.trust == server::Trust::central || (m.trust.trust == server::Trust::distributed &&
                                                  m.trust.sampled_by == server::Sampler::agents);
  for (const double q : p.rates)
    plan.agent_round.push_back(secret ? privacy::sampled_gaussian(privacy::Sampling::poisson, q,
                                                                  m.noise_multiplier, population)
                                      : server::DpMechanism::event(m, p.rates.size()));
  plan.agent_budgets = p.budgets;
  if (p.tier_count > 0) plan.agent_tiers = p.tiers;
  plan.stopped_sends_zero =
      m.trust.trust == server::Trust::distributed && m.trust.sampled_by == server::Sampler::agents;
}

}  // namespace

protocol::PrivacyPlan FtsDeSystem::privacy_plan(int agents) const {
  const FtsDeConfig& c = config_;
  protocol::PrivacyPlan plan;
  if (!c.server) return plan;
  if (c.dp) plan.round = server::DpMechanism::event(c.mechanism, static_cast<std::size_t>(agents));
  // Footnote 13: server round t's broadcast is followed in round t + 1 with probability
  // 1 - p_{t+1}; the server stops before the first round whose broadcast would be negligible.
  // (The engine caps it at the run's rounds.)
  if (c.stop.stop_p)
    plan.server_rounds = agents::first_negligible_round(c.agent.schedule, *c.stop.stop_p,
                                                        std::numeric_limits<int>::max() - 1) -
                         1;
  plan.budget = c.stop.budget;  // enforced by the engine, which holds the ledger
  // A secure sum without padding: survivors are charged the smaller noise actually summed.
  plan.bounds_dropouts = !(c.dp && c.mechanism.trust.trust == server::Trust::distributed &&
                           c.mechanism.trust.dropout_padding == 0);
  if (c.dp && !c.mechanism.personal.rates.empty()) personal_plan(c.mechanism, plan);
  return plan;
}

std::vector<privacy::DpEvent> FtsDeSystem::run_events(int agents, int rounds) const {
  std::vector<privacy::DpEvent> out;
  for (const privacy::DpEvent& e : possible_events(agents))
    out.push_back(privacy::DpEvent::self_composed(e, rounds));
  return out;
}

std::vector<std::unique_ptr<const protocol::AuditableRelease>> FtsDeSystem::auditable_releases(
    const protocol::AuditInputs& in) const {
  std::vector<std::unique_ptr<const protocol::AuditableRelease>> out;
  if (!config_.server || !config_.dp) return out;
  if (config_.mechanism.trust.trust != server::Trust::central) {
    // Each trust model's adversary and its view (issue 42).
    server::TrustReleaseAudit::Setting setting;
    setting.noise_scale = in.noise_scale;
    out.push_back(std::make_unique<const server::TrustReleaseAudit>(
        config_.mechanism, config_.features, in.agents, config_.subregions, config_.weights,
        in.rounds, setting));
    return out;
  }
  if (in.buffer > 0) {  // schedule.kind buffered: one release of K arrivals at q = 1
    server::BufferedReleaseAudit::Setting setting;
    setting.noise_scale = in.noise_scale;
    out.push_back(std::make_unique<const server::BufferedReleaseAudit>(
        config_.mechanism, config_.features, in.agents, config_.subregions, config_.weights,
        in.rounds, in.buffer, setting));
    return out;
  }
  out.push_back(std::make_unique<const server::ServerReleaseAudit>(
      config_.mechanism, config_.features, in.agents, config_.subregions, config_.weights,
      in.rounds, in.noise_scale));
  return out;
}

// The dominant terms of its memory and work, each naming its keys (Algorithm::estimate).
void FtsDeSystem::estimate(const protocol::ExperimentFacts& s,
                           protocol::ResourceEstimate& e) const {
  const FtsDeConfig& c = config_;
  const double agents = s.agents, m = c.features;
  // Each agent's posterior over the M shared features (a matrix and its factor).
  e.memory.push_back({agents * 2 * m * m * 8, key_value("agents.count", agents) + " x " +
                                                  key_value("rff.features", m) +
                                                  "^2 (the agents' posteriors)"});
  agents::estimate_local_ts_steps(s, static_cast<double>(s.runs) * agents * s.rounds,
                                  c.agent.init_points + static_cast<double>(s.rounds), m,
                                  c.agent.local, e);
  protocol::add_evaluation_work(
      s,
      static_cast<double>(s.runs) * agents * (c.agent.init_points + static_cast<double>(s.rounds)),
      key_value("runs", s.runs) + " x " + key_value("agents.count", agents) + " x (" +
          key_value("agents.init_points", c.agent.init_points) + " + " +
          key_value("rounds", s.rounds) + ")",
      e);
}

const FtsDeConfig* fts_de_config(const protocol::Algorithm* a) {
  const auto* s = dynamic_cast<const FtsDeSystem*>(a);
  return s ? &s->config() : nullptr;
}

}  // namespace fbosim::systems
