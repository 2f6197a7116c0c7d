#include "sim/config/fts_target_reader.hpp"

#include <fmt/format.h>

#include "algorithms/systems/fts_target_system.hpp"
#include "sim/config/model_keys.hpp"

namespace fbosim::config {

namespace {

void read_sources(ConfigReader& r, const ExperimentSpec& s, systems::FtsTargetConfig& c) {
  c.history = r.get_choice("sources.history", "random", {"random", "ts"}) == "ts"
                  ? systems::SourceHistory::ts
                  : systems::SourceHistory::random;
  c.history_points = r.get_int("sources.points", c.history_points, 1, kMaxCount);
  if (c.history == systems::SourceHistory::ts)
    c.history_init = r.get_int("sources.init_points", c.history_init, 1, kMaxCount);
  c.general = r.get_choice("sources.setting", "simple", {"simple", "general"}) == "general";
  c.pairing = r.get_choice("sources.pairing", "aligned", {"aligned", "authors"}) == "authors"
                  ? systems::HistoryPairing::authors
                  : systems::HistoryPairing::aligned;
  r.require(
      c.pairing == systems::HistoryPairing::aligned || c.history == systems::SourceHistory::ts,
      "sources.pairing", "authors applies to TS histories (sources.history: ts)");
  c.target_agents = r.get_int("target.agents", c.target_agents, 1, kMaxCount);
  r.require(c.target_agents <= s.agents, "target.agents",
            fmt::format("must be at most agents.count = {}", s.agents));
}

}  // namespace

std::shared_ptr<const protocol::Algorithm> read_fts_target(ConfigReader& r, ExperimentSpec& s) {
  systems::FtsTargetConfig c;
  c.name = s.algorithm;
  r.require(s.agents >= 2, "agents.count",
            fmt::format("algorithm {} needs a target and at least one source (>= 2)", s.algorithm));
  auto& t = c.target;
  t.init_points = r.get_int("agents.init_points", t.init_points, 1, kMaxCount);
  t.schedule = agents::parse_exploration_schedule(
      r.get_choice("target.schedule", "inv_sqrt", {"inv_sqrt", "inv", "inv_square", "local"}));
  // The three read the same keys, each using its own (as ts reads the DP-FTS-DE keys), so one
  // config can hold every method's curve and a sweep can vary `algorithm`.
  c.variant = r.get_choice("ensemble.variant", "authors", {"authors", "corrected"}) == "authors"
                  ? ensemble::Variant::authors
                  : ensemble::Variant::corrected;
  c.samples = r.get_int("ensemble.samples", c.samples, 1, kMaxCount);
  c.bandwidth = r.get<double>("ensemble.bandwidth", c.bandwidth);
  r.require(c.bandwidth > 0, "ensemble.bandwidth", "must be > 0");
  read_sources(r, s, c);
  if (!datasets::is_real_world(s.objective.family)) {
    // Every run draws new functions; agent 0 is the target and sees f itself (FTS sec. 5.1).
    r.require(c.target_agents == 1, "target.agents",
              "must be 1 on a synthetic family (agent 0, the target, sees the base function f)");
    s.objective.synthetic.unperturbed = 1;
  }
  t.reuse_sources = c.general;
  RffKeys rff{c.features, c.rff_lengthscale, c.message_lambda};
  read_rff(r, rff);
  c.features = rff.features;
  c.rff_lengthscale = rff.lengthscale;
  c.message_lambda = rff.lambda;
  read_local_ts(r, t.local, s.objective.family);
  return std::make_shared<systems::FtsTargetSystem>(c);
}

}  // namespace fbosim::config

namespace fbosim::config {

void estimate_fts_target(const ExperimentSpec& s, ResourceEstimate& e) {
  const auto& c = dynamic_cast<const systems::FtsTargetSystem&>(*s.system).config();
  const double agents = s.agents, m = c.features;
  // The sources' posteriors (RGPE / TAF hold an M x M matrix per source at the target too).
  e.memory.push_back({agents * 3 * m * m * 8, key_value("agents.count", agents) + " x " +
                                                  key_value("rff.features", m) +
                                                  "^2 (the sources' posteriors)"});
  // The histories: every agent's own TS task, and the target's steps in every run.
  const double history_steps =
      c.history == systems::SourceHistory::ts ? agents * c.history_points : 0.0;
  const double target_steps = static_cast<double>(s.runs) * s.rounds;
  estimate_agent_steps(s, history_steps * s.runs + target_steps,
                       c.target.init_points + c.history_points + static_cast<double>(s.rounds), m,
                       c.target.local, e);
  if (c.name == "rgpe") {
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

}  // namespace fbosim::config
