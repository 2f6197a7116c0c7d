// The memory and work of each system (AlgorithmEntry::estimate), for the refusal of absurd
// sizes before anything is allocated: the dominant terms only, each naming its keys.
#include "algorithms/systems/resource_estimates.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "algorithms/agents/local_ts_estimate.hpp"
#include "algorithms/systems/dp_bo_system.hpp"
#include "algorithms/systems/fts_de_system.hpp"
#include "algorithms/systems/fts_target_system.hpp"
#include "algorithms/systems/po_gp_ucb_system.hpp"

namespace fbosim::systems {

using protocol::key_value;

void estimate_fts_de(const protocol::Algorithm& a, const protocol::ExperimentFacts& s,
                     protocol::ResourceEstimate& e) {
  const FtsDeConfig& c = dynamic_cast<const FtsDeSystem&>(a).config();
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

void estimate_fts_target(const protocol::Algorithm& a, const protocol::ExperimentFacts& s,
                         bool ranking_losses, protocol::ResourceEstimate& e) {
  const auto& c = dynamic_cast<const FtsTargetSystem&>(a).config();
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

void estimate_po_gp_ucb(const protocol::Algorithm& a, const protocol::ExperimentFacts& s,
                        protocol::ResourceEstimate& e) {
  const auto& c = dynamic_cast<const PoGpUcbSystem&>(a).config();
  const double n = static_cast<double>(s.domain_points), agents = s.agents,
               q = std::max(c.curator.r, 2);
  const double t = c.ucb.init_points + static_cast<double>(s.rounds);
  const std::string kn = key_value("points", n);
  e.memory.push_back({agents * n * (q + t + 4) * 8, key_value("agents.count", agents) + " x " + kn +
                                                        " x (" + key_value("curator.r", q) +
                                                        " + observations) (Z and the posterior)"});
  e.work.push_back({static_cast<double>(s.runs) * agents * t * n * (t + q + 10),
                    key_value("runs", s.runs) + " x " + key_value("agents.count", agents) + " x " +
                        key_value("rounds", s.rounds) + " x " + kn + " (GP-UCB steps)"});
  protocol::add_evaluation_work(s, static_cast<double>(s.runs) * agents * t,
                                key_value("runs", s.runs) + " x " +
                                    key_value("agents.count", agents) + " x (initial points + " +
                                    key_value("rounds", s.rounds) + ")",
                                e);
}

void estimate_dp_bo(const protocol::Algorithm& a, const protocol::ExperimentFacts& s,
                    protocol::ResourceEstimate& e) {
  const auto& c = dynamic_cast<const DpBoSystem&>(a).config();
  const double n = static_cast<double>(s.domain_points) > 0 ? static_cast<double>(s.domain_points)
                                                            : std::pow(c.per_axis, 2.0);
  const double t = c.ucb.init_points + static_cast<double>(s.rounds), agents = s.agents;
  e.memory.push_back({agents * n * (t + 4) * 8,
                      key_value("agents.count", agents) + " x candidates (the posteriors)"});
  e.work.push_back({static_cast<double>(s.runs) * agents * t * n * (2 * t + 10),
                    key_value("runs", s.runs) + " x " + key_value("rounds", s.rounds) +
                        " x candidates (GP-UCB steps and the information-gain bound)"});
  protocol::add_evaluation_work(s, static_cast<double>(s.runs) * agents * t,
                                key_value("runs", s.runs) + " x " +
                                    key_value("agents.count", agents) + " x (initial points + " +
                                    key_value("rounds", s.rounds) + ")",
                                e);
}

}  // namespace fbosim::systems
