// FTS's target-agent family (fts_target, rgpe, taf): its keys and registry entries.
#include <algorithm>

#include <fmt/format.h>

#include "algorithms/agents/agent_options.hpp"
#include "algorithms/protocol/algorithm_entry.hpp"
#include "algorithms/rff/message_features.hpp"
#include "algorithms/systems/fts_target_system.hpp"
#include "schema/group.hpp"
#include "schema/registry.hpp"

namespace fbosim::systems {

namespace {

schema::Lens<FtsTargetConfig, rff::MessageFeatures> target_message_features() {
  return {[](const FtsTargetConfig& c) {
            return rff::MessageFeatures{c.features, c.rff_lengthscale, c.rff_lengthscales,
                                        c.message_lambda};
          },
          [](FtsTargetConfig& c, const rff::MessageFeatures& m) {
            c.features = m.features;
            c.rff_lengthscale = m.lengthscale;
            c.rff_lengthscales = m.lengthscales;
            c.message_lambda = m.lambda;
          }};
}

/// sources.setting: each source's message used once (simple) or reused (general).
constexpr schema::EnumNames<bool> kGeneralNames{{false, "simple"}, {true, "general"}};

/// target.source_weights: one weight per agent, and every target (agents 0 .. target.agents - 1)
/// with a source of positive weight; FTS's line 6 only (RGPE and TAF weigh every source by their
/// own rules).
void check_source_weights(const FtsTargetConfig& c, const protocol::ExperimentFacts& f,
                          schema::Problems& out) {
  const std::vector<double>& w = c.target.source_weights;
  if (w.empty()) return;
  if (c.name != "fts_target") {
    out.push_back({"target.source_weights",
                   fmt::format("is P_N of FTS's line 6 (algorithm fts_target); {} weighs the "
                               "sources by its own rule: leave it out",
                               c.name)});
    return;
  }
  if (static_cast<int>(w.size()) != f.agents) {
    out.push_back({"target.source_weights",
                   fmt::format("has {} weights; it needs one per agent, agents.count = {} (the "
                               "target's own is ignored)",
                               w.size(), f.agents)});
    return;
  }
  for (int k = 0; k < std::min(c.target_agents, f.agents); ++k) {
    double others = 0;
    for (int n = 0; n < f.agents; ++n)
      if (n != k) others += w[static_cast<std::size_t>(n)];
    if (!(others > 0))
      out.push_back({"target.source_weights",
                     fmt::format("gives every source of target agent {} weight 0: P_N must be a "
                                 "distribution over its sources (sec. 3.1)",
                                 k)});
  }
}

void validate_target(const FtsTargetConfig& c, const protocol::ExperimentFacts& f,
                     schema::Problems& out) {
  if (f.agents < 2)
    out.push_back(
        {"agents.count",
         fmt::format("algorithm {} needs a target and at least one source (>= 2)", c.name)});
  if (c.target_agents > f.agents)
    out.push_back({"target.agents", fmt::format("must be at most agents.count = {}", f.agents)});
  // Synthetic families draw new functions every run; agent 0, the target, sees f itself (FTS
  // sec. 5.1: traits.unperturbed_agents).
  if (!f.real_data && c.target_agents != 1)
    out.push_back({"target.agents",
                   "must be 1 on a synthetic family (agent 0, the target, sees the base function "
                   "f)"});
  check_source_weights(c, f, out);
  agents::check_local_ts(c.target.local, f, out);
  rff::check_message_lengthscales(c.rff_lengthscales, f.dimension, out);
}

std::shared_ptr<const protocol::Algorithm> build(FtsTargetConfig c) {
  c.target.reuse_sources = c.general;
  return std::make_shared<FtsTargetSystem>(c);
}

}  // namespace

const schema::Group<FtsTargetConfig>& fts_target_keys() {
  using C = FtsTargetConfig;
  using agents::FtsTargetOptions;
  using schema::at;
  using schema::Range;
  static const auto g =
      schema::Group<C>{}
          .include(agents::init_points_keys(), at(&C::target, &FtsTargetOptions::init_points))
          .choice("target.schedule", at(&C::target, &FtsTargetOptions::schedule),
                  agents::kExplorationScheduleNames,
                  "`fts_target` only: 1 - p_t of Algorithm 1 with p_1 = p_2: `inv_sqrt` (1/sqrt "
                  "t, sec. 5.1), `inv` (1/t), `inv_square` (1/t^2, sec. 5.2), `local` (p_t = 1: "
                  "standard TS, the authors' baseline)")
          .choice("ensemble.variant", &C::variant, ensemble::kVariantNames,
                  "`rgpe`, `taf`: `authors` is what the FTS authors' released code computes "
                  "(independent per-pair samples in RGPE's ranking loss; TAF's scaled Euclidean "
                  "ranking distance and random improvements; the target's variance with its "
                  "noise); `corrected` follows the RGPE and TAF papers (joint samples, fraction "
                  "of discordant pairs, predicted improvement, latent variance)")
          .integer("ensemble.samples", &C::samples, Range::closed(1, 100000),
                   "`rgpe`: S, the ranking-loss samples")
          .real("ensemble.bandwidth", &C::bandwidth, Range::above(0),
                "`taf`: rho of the Epanechnikov kernel")
          .choice("sources.history", &C::history, kSourceHistoryNames,
                  "`random`: each source observed `sources.points` uniform inputs (sec. 5.1); "
                  "`ts`: each ran standard TS for `sources.init_points` + `sources.points` steps "
                  "on its own objective (sec. 5.2, the authors' code). TS histories are made once "
                  "per experiment on real data (the same for every run and target), per run on "
                  "synthetic families")
          .integer("sources.points", &C::history_points, Range::closed(1, 100000),
                   "t_n, the observations a source's message conditions on (TS histories: the BO "
                   "steps, not the initial design, as the authors' code)")
          .integer("sources.init_points", &C::history_init, Range::closed(1, 100000),
                   "`ts` histories: their initial design")
          .when([](const C& c) { return c.history == SourceHistory::ts; })
          .choice("sources.setting", &C::general, kGeneralNames,
                  "`simple`: one message per source, before iteration 1, each used at most once "
                  "by FTS (sec. 3.1); `general`: the sources take one more TS step before every "
                  "iteration and send again, and FTS may reuse them (App. D.2.1)")
          .choice("sources.pairing", &C::pairing, kHistoryPairingNames,
                  "`authors`: reproduce the released code's pairing of a TS history, x_{k/2} "
                  "with y_k (every x was stored twice); `aligned` pairs each x with its own y")
          .check([](const C& c, schema::Problems& p) {
            if (c.pairing == HistoryPairing::authors && c.history != SourceHistory::ts)
              p.push_back(
                  {"sources.pairing", "authors applies to TS histories (sources.history: ts)"});
          })
          .real_list("target.source_weights", at(&C::target, &FtsTargetOptions::source_weights),
                     Range::at_least(0),
                     "`fts_target` only: P_N of Algorithm 1 line 6, the probability of choosing "
                     "each source (sec. 3.1), up to normalisation: one weight per agent id, "
                     "agents.count of them (the target's own is ignored); in the simple setting a "
                     "used source leaves P_N and the rest are renormalised; a source of weight 0 "
                     "is never chosen (a straggler), and with no available source of positive "
                     "weight the target takes its own step. Absent: uniform, P_N[n] = 1/N, as "
                     "every experiment of the paper (sec. 5)")
          .integer("target.agents", &C::target_agents, Range::closed(1, 100000),
                   "run r's target is agent r mod this (landmine: 6, the paper's first 6 fields; "
                   "30 runs = 6 targets x 5 initialisations). Synthetic families: must be 1, and "
                   "agent 0 then sees the base function f itself while the sources see f + "
                   "perturbation (FTS sec. 5.1)")
          .include(rff::message_feature_keys(), target_message_features())
          .choice("rff.shared_draw", &C::shared_draw, kSharedDrawNames,
                  "the shared random features of the messages: `per_run` draws them for each run "
                  "(stream `rff.shared` of the run); `per_experiment` draws them once, run 0's "
                  "draw for every run, so every run and method (same seed) sees the same "
                  "features, as the FTS authors' one saved draw RF_M_100.pkl [code]")
          .include(agents::local_ts_keys(), at(&C::target, &FtsTargetOptions::local));
  return g;
}

void register_fts_target_algorithms(schema::Registry<protocol::AlgorithmEntry>& registry) {
  struct Named {
    const char* name;
    const char* summary;
  };
  constexpr Named kNames[] = {
      {"fts_target", "FTS, Algorithm 1: one target agent and N sources (Dai, Low & Jaillet 2020)"},
      {"rgpe",
       "RGPE adapted to FBO: ranking-weighted ensemble of the sources' RFF posteriors (FTS sec. "
       "3.2; Feurer, Letham & Bakshy 2018)"},
      {"taf",
       "TAF adapted to FBO: transfer acquisition function over the sources' RFF posteriors (FTS "
       "sec. 3.2; Wistuba, Schilling & Schmidt-Thieme 2018)"},
  };
  for (const Named& n : kNames) {
    FtsTargetConfig defaults;
    defaults.name = n.name;
    protocol::AlgorithmEntry e = protocol::make_algorithm_entry<FtsTargetConfig>(
        n.name, n.summary, fts_target_keys(), defaults, validate_target,
        [](FtsTargetConfig c, const protocol::ExperimentFacts&) { return build(std::move(c)); });
    e.traits.min_agents = 2;
    e.traits.unperturbed_agents = 1;
    e.traits.schedules_why =
        "its sources do not evaluate during the run (their messages come from histories made "
        "before it), so no time line of evaluations drives its releases (not yet defined)";
    registry.add(std::move(e));
  }
}

}  // namespace fbosim::systems
