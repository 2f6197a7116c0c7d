#include "algorithms/systems/fts_target_system.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/agents/local_ts_estimate.hpp"
#include "algorithms/agents/ts_agent.hpp"
#include "algorithms/protocol/experiment_facts.hpp"
#include "algorithms/protocol/resource_estimate.hpp"
#include "algorithms/server/peer_forwarder.hpp"
#include "algorithms/server/privatized_mechanism.hpp"

namespace fbosim::systems {

using protocol::key_value;

FtsTargetSystem::FtsTargetSystem(FtsTargetConfig config) : config_(std::move(config)) {
  if (config_.name != "fts_target" && config_.name != "rgpe" && config_.name != "taf")
    throw std::invalid_argument(
        fmt::format("FtsTargetSystem builds fts_target, rgpe and taf, not '{}'", config_.name));
  if (config_.target_agents < 1)
    throw std::invalid_argument(
        fmt::format("target.agents must be >= 1, got {}", config_.target_agents));
}

std::vector<protocol::StatColumn> FtsTargetSystem::server_columns() const {
  using protocol::StatColumn;
  return {StatColumn::received, StatColumn::floats, StatColumn::floats_per_message};
}

std::optional<protocol::HistoryRequest> FtsTargetSystem::history_request() const {
  const FtsTargetConfig& c = config_;
  const bool ts = c.history == SourceHistory::ts;
  const int init = ts ? c.history_init : c.history_points;
  const agents::LocalTsOptions local = c.target.local;
  protocol::HistoryRequest r;
  r.init_points = init;
  r.rounds = ts ? c.history_points : 0;
  r.policy = [init, local](int agent, const core::Domain& domain) {
    return std::make_unique<agents::TsAgent>(agent, domain, init, local);
  };
  return r;
}

protocol::History FtsTargetSystem::message_history(const protocol::History& h) const {
  const Eigen::Index skip = config_.history == SourceHistory::ts ? config_.history_init : 0;
  const Eigen::Index n = std::max<Eigen::Index>(0, h.y.size() - skip);
  protocol::History out{h.X.bottomRows(n), h.y.tail(n)};
  if (config_.pairing == HistoryPairing::authors)
    for (Eigen::Index k = 0; k < n; ++k) out.X.row(k) = h.X.row(skip + k / 2);
  return out;
}

std::unique_ptr<protocol::AgentPolicy> FtsTargetSystem::make_target(
    int id, std::shared_ptr<const agents::SharedContext> ctx) const {
  if (config_.name == "fts_target")
    return std::make_unique<agents::FtsTargetAgent>(id, std::move(ctx), config_.target);
  agents::EnsembleOptions o;
  o.method = config_.name == "rgpe" ? agents::EnsembleOptions::Method::rgpe
                                    : agents::EnsembleOptions::Method::taf;
  o.variant = config_.variant;
  o.init_points = config_.target.init_points;
  o.samples = config_.samples;
  o.bandwidth = config_.bandwidth;
  o.message_lambda = config_.message_lambda;
  o.local = config_.target.local;
  return std::make_unique<agents::EnsembleTargetAgent>(id, std::move(ctx), o);
}

protocol::RunParts FtsTargetSystem::build(const protocol::RunInputs& in) const {
  const FtsTargetConfig& c = config_;
  if (!in.histories || static_cast<int>(in.histories->size()) != in.agents)
    throw std::logic_error("FTS target-agent runs need every agent's history");
  if (in.agents < 2)
    throw std::invalid_argument("FTS needs a target and at least one source: agents.count >= 2");
  const int target = in.run % std::min(c.target_agents, in.agents);
  const core::Domain& domain = *in.domain;
  // rff.shared_draw: per_experiment takes run 0's draw for every run (run 0 is unchanged).
  const core::RngFactory experiment(in.streams->seed(), 0);
  core::RngStream shared_rng =
      (c.shared_draw == SharedDraw::per_experiment ? experiment : *in.streams).stream("rff.shared");
  auto ctx = std::make_shared<const agents::SharedContext>(
      domain,
      agents::shared_features(domain.dim, c.features, c.rff_lengthscale, c.rff_lengthscales,
                              c.target.local.kernel, shared_rng),
      de::Partition(domain.dim, 1));
  // FTS sends a sample (M floats); RGPE and TAF the posterior, TAF with its incumbent (sec. 3.2).
  const agents::SourceMessage kind = c.name == "fts_target" ? agents::SourceMessage::sample
                                     : c.name == "rgpe"
                                         ? agents::SourceMessage::summary
                                         : agents::SourceMessage::summary_with_incumbent;
  agents::FtsSourceOptions source{
      kind, c.general, c.message_lambda, c.target.local,
      c.history == SourceHistory::ts ? c.history_init : c.history_points};
  protocol::RunParts parts;
  for (int n = 0; n < in.agents; ++n) {
    if (n == target) {
      parts.agents.push_back(make_target(n, ctx));
    } else {
      const protocol::History& h = (*in.histories)[static_cast<std::size_t>(n)];
      parts.agents.push_back(
          std::make_unique<agents::FtsSourceAgent>(n, ctx, h, message_history(h), source));
    }
  }
  parts.server =
      std::make_unique<server::PlainMechanism>(std::make_shared<server::PeerForwarder>());
  parts.measured = {target};
  return parts;
}

// The dominant terms of its memory and work, each naming its keys (Algorithm::estimate).
void FtsTargetSystem::estimate(const protocol::ExperimentFacts& s,
                               protocol::ResourceEstimate& e) const {
  const FtsTargetConfig& c = config_;
  // RGPE draws ranking-loss samples at every target step.
  const bool ranking_losses = c.name == "rgpe";
  const double agents = s.agents, m = c.features;
  // The sources' posteriors (RGPE / TAF hold an M x M matrix per source at the target too).
  e.memory.push_back({agents * 3 * m * m * 8, key_value("agents.count", agents) + " x " +
                                                  key_value("rff.features", m) +
                                                  "^2 (the sources' posteriors)"});
  // The histories: every agent's own TS task, and the target's steps in every run.
  const double history_steps = c.history == SourceHistory::ts ? agents * c.history_points : 0.0;
  const double target_steps = static_cast<double>(s.runs) * s.rounds;
  agents::estimate_local_ts_steps(
      s, history_steps * s.runs + target_steps,
      c.target.init_points + c.history_points + static_cast<double>(s.rounds), m, c.target.local,
      e);
  // The objective: the sources' TS histories (once per experiment on real data, per run on the
  // synthetic families, whose evaluations cost nothing) and the target's own evaluations.
  const double target_evaluations =
      static_cast<double>(s.runs) * (c.target.init_points + static_cast<double>(s.rounds));
  const double history_evaluations =
      c.history == SourceHistory::ts ? agents * (c.history_init + c.history_points) : 0.0;
  protocol::add_evaluation_work(
      s, target_evaluations + history_evaluations,
      key_value("runs", s.runs) + " x (" + key_value("agents.init_points", c.target.init_points) +
          " + " + key_value("rounds", s.rounds) + ") + " + key_value("agents.count", agents) +
          " x (" + key_value("sources.init_points", c.history_init) + " + " +
          key_value("sources.points", c.history_points) + ")",
      e);
  if (ranking_losses) {
    // RGPE's ranking losses at each target step: S samples of n (n - 1) pairs per source, and
    // the target's leave-one-out joint draws (n x n factors times n x S normals, n times).
    const double S = c.samples, n = c.target.init_points + static_cast<double>(s.rounds);
    const std::string ks = key_value("ensemble.samples", S);
    e.work.push_back({target_steps * S * (agents * n * n + n * n * n),
                      key_value("runs", s.runs) + " x " + key_value("rounds", s.rounds) + " x " +
                          ks + " x " + key_value("agents.count", agents) +
                          " (RGPE's ranking-loss samples)"});
    e.memory.push_back(
        {(agents + 1 + 2 * n) * S * 8,
         ks + " x " + key_value("agents.count", agents) + " (RGPE's ranking-loss samples)"});
  }
}

}  // namespace fbosim::systems
