#include "sim/config/fts_de_reader.hpp"

#include <fmt/format.h>

#include "algorithms/systems/fts_de_system.hpp"
#include "sim/config/model_keys.hpp"

namespace fbosim::config {

namespace {

struct Preset {
  bool server = true;
  bool dp_default = true;
  bool dp_forced = false;      // server.dp must equal dp_default
  bool single_region = false;  // exploration.subregions must be 1
  const char* instead = "";    // the name to use for the other choice
};

Preset preset(const std::string& name) {
  if (name == "ts") return {false, true, false, false, ""};
  if (name == "fts") return {true, false, true, true, "dp_fts"};
  if (name == "dp_fts") return {true, true, true, true, "fts"};
  if (name == "dp_fts_de") return {true, true, true, false, "fts_de"};
  return {true, false, true, false, "dp_fts_de"};  // fts_de
}

void read_exploration(ConfigReader& r, const ExperimentSpec& s, const Preset& p,
                      systems::FtsDeConfig& c) {
  c.subregions = r.get<int>("exploration.subregions", c.subregions);
  // Every sub-region is explored by its own agents (Dai et al. 2021, Sec. 3.2: agent n is
  // assigned sub-region n mod P), so P > N would leave sub-regions no agent explores.
  r.require(c.subregions >= 1 && c.subregions <= s.agents, "exploration.subregions",
            fmt::format("must be in [1, agents.count = {}]", s.agents));
  r.require(!p.single_region || c.subregions == 1, "exploration.subregions",
            fmt::format("algorithm {} has no distributed exploration (P = 1); use {}_de for P > 1",
                        s.algorithm, s.algorithm));
  c.agent.schedule = agents::parse_exploration_schedule(r.get_choice(
      "exploration.schedule", to_string(c.agent.schedule), {"inv_sqrt", "inv", "inv_square"}));
  auto& w = c.weights;
  w.scheme = de::parse_weight_scheme(r.get_choice("exploration.weights.scheme", to_string(w.scheme),
                                                  {"softmax", "linear", "quadratic", "equal"}));
  w.start = r.get<double>("exploration.weights.start", w.start);
  r.require(std::isfinite(w.start) && w.start >= 1, "exploration.weights.start",
            "must be a finite number >= 1");
  w.end = r.get<double>("exploration.weights.end", w.end);
  r.require(std::isfinite(w.end) && w.end >= 1 && w.end <= w.start, "exploration.weights.end",
            "must be a finite number in [1, exploration.weights.start]");
  w.hold = r.get<int>("exploration.weights.hold", w.hold);
  r.require(w.hold >= 0, "exploration.weights.hold", "must be >= 0");
  w.decay = r.get<int>("exploration.weights.decay", w.decay);
  r.require(w.decay >= 0, "exploration.weights.decay", "must be >= 0");
  w.adaptive = r.get<bool>("exploration.weights.adaptive", w.adaptive);
}

void read_mechanism(ConfigReader& r, const ExperimentSpec& s, const Preset& p,
                    systems::FtsDeConfig& c) {
  auto& m = c.mechanism;
  c.dp = r.get<bool>("server.dp", p.dp_default);
  r.require(!p.dp_forced || c.dp == p.dp_default, "server.dp",
            fmt::format("algorithm {} runs {} DP (server.dp must be {} or left out); {} DP, use "
                        "algorithm {}",
                        s.algorithm, p.dp_default ? "with" : "without", p.dp_default,
                        p.dp_default ? "without" : "with", p.instead));
  m.sampling = privacy::parse_sampling(
      r.get_choice("server.sampling", privacy::to_string(m.sampling), {"poisson", "fixed"}));
  m.sampling_rate = r.get<double>("server.sampling_rate", m.sampling_rate);
  r.require(m.sampling_rate > 0 && m.sampling_rate <= 1, "server.sampling_rate",
            "must be in (0, 1]");
  m.noise_multiplier = r.get<double>("server.noise_multiplier", m.noise_multiplier);
  r.require(m.noise_multiplier > 0, "server.noise_multiplier", "must be > 0");
  m.clip_norm = r.get<double>("server.clip_norm", m.clip_norm);
  r.require(m.clip_norm > 0, "server.clip_norm", "must be > 0");
  m.per_region_w_max =
      r.get_choice("server.w_max", "global", {"global", "per_region"}) == "per_region";
  if (!c.server || !c.dp) return;
  try {  // e.g. fixed-size sampling of floor(N q) = 0 agents
    server::DpMechanism::event(m, static_cast<std::size_t>(s.agents));
  } catch (const std::invalid_argument& e) {
    r.require(false, "server.sampling_rate", e.what());
  }
}

}  // namespace

std::shared_ptr<const protocol::Algorithm> read_fts_de(ConfigReader& r, const ExperimentSpec& s) {
  const Preset p = preset(s.algorithm);
  systems::FtsDeConfig c;
  c.name = s.algorithm;
  c.server = p.server;
  c.agent.init_points = r.get_int("agents.init_points", c.agent.init_points, 1, kMaxCount);
  c.agent.init_in_region = r.get_choice("agents.init", "region", {"region", "domain"}) == "region";
  read_exploration(r, s, p, c);
  RffKeys rff{c.features, c.rff_lengthscale, c.agent.message_lambda};
  read_rff(r, rff);
  c.features = rff.features;
  c.rff_lengthscale = rff.lengthscale;
  c.agent.message_lambda = rff.lambda;
  read_local_ts(r, c.agent.local, s.objective.family);
  read_mechanism(r, s, p, c);
  if (!c.server) {
    // Standard TS (Dai et al. 2021, sec. 5: the baseline without federation) has no sub-regions:
    // every agent initialises and explores on the whole domain, whatever exploration.* says (a
    // TS curve of an FTS-DE figure config keeps that config's P, which would otherwise put each
    // TS agent's initial points in its own sub-region).
    c.agent.schedule = agents::ExplorationSchedule::local;
    c.subregions = 1;
    c.agent.init_in_region = false;
  }
  return std::make_shared<systems::FtsDeSystem>(c);
}

}  // namespace fbosim::config

namespace fbosim::config {

void estimate_fts_de(const ExperimentSpec& s, ResourceEstimate& e) {
  const systems::FtsDeConfig& c = *s.fts_de();
  const double agents = s.agents, m = c.features;
  // Each agent's posterior over the M shared features (a matrix and its factor).
  e.memory.push_back({agents * 2 * m * m * 8, key_value("agents.count", agents) + " x " +
                                                  key_value("rff.features", m) +
                                                  "^2 (the agents' posteriors)"});
  estimate_agent_steps(s, static_cast<double>(s.runs) * agents * s.rounds,
                       c.agent.init_points + static_cast<double>(s.rounds), m, c.agent.local, e);
}

}  // namespace fbosim::config
