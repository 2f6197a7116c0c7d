// The DP-FTS-DE family's keys and its five registry entries (presets of one system).
#include <fmt/format.h>

#include "algorithms/protocol/algorithm_entry.hpp"
#include "algorithms/rff/message_features.hpp"
#include "algorithms/systems/fts_de_system.hpp"
#include "schema/group.hpp"
#include "schema/registry.hpp"

namespace fbosim::systems {

namespace {

// The shared message features, gathered from where FtsDeConfig keeps them.
schema::Lens<FtsDeConfig, rff::MessageFeatures> message_features() {
  return {[](const FtsDeConfig& c) {
            return rff::MessageFeatures{c.features, c.rff_lengthscale, c.rff_lengthscales,
                                        c.agent.message_lambda};
          },
          [](FtsDeConfig& c, const rff::MessageFeatures& m) {
            c.features = m.features;
            c.rff_lengthscale = m.lengthscale;
            c.rff_lengthscales = m.lengthscales;
            c.agent.message_lambda = m.lambda;
          }};
}

// What each registry name fixes.
struct Preset {
  const char* name;
  const char* summary;
  bool server = true;          // false: standard TS, no messages at all
  bool dp_default = true;      // server.dp's default
  bool dp_forced = false;      // server.dp must equal dp_default
  bool single_region = false;  // exploration.subregions must be 1
  const char* instead = "";    // the name to use for the other server.dp
};

constexpr Preset kPresets[] = {
    {"fts_de", "FTS-DE: distributed exploration, no DP (Dai, Low & Jaillet 2021)", true, false,
     true, false, "dp_fts_de"},
    {"ts", "standard Thompson sampling, every agent alone", false},
    {"fts", "FTS with a server: P = 1, no DP (Dai, Low & Jaillet 2021, Fig. 2a)", true, false, true,
     true, "dp_fts"},
    {"dp_fts", "DP-FTS: P = 1 with DP (Dai, Low & Jaillet 2021)", true, true, true, true, "fts"},
    {"dp_fts_de", "DP-FTS-DE (Dai, Low & Jaillet 2021)", true, true, true, false, "fts_de"},
};

// server.trust and its keys (issue 42): each refusal says why.
void check_trust(const Preset& p, const FtsDeConfig& c, const protocol::ExperimentFacts& f,
                 schema::Problems& out) {
  using server::Trust;
  const server::TrustOptions& t = c.mechanism.trust;
  if (t.trust == Trust::central) return;
  const std::string trust = server::kTrustNames.name(t.trust);
  if (!c.server || !c.dp) {
    out.push_back(
        {"server.trust",
         fmt::format("algorithm {} {}: there is no noise for the agents to add; use "
                     "algorithm dp_fts or dp_fts_de, or leave server.trust out",
                     p.name, c.server ? "runs without DP (server.dp: false)" : "has no server")});
    return;
  }
  if (c.mechanism.clipping == server::Clipping::adaptive)
    out.push_back({"server.clipping",
                   fmt::format("adaptive clipping is refused with server.trust: {}: its noisy "
                               "count of unclipped messages is computed by the server from the "
                               "messages, which it does not see (no secure or local release of "
                               "the count is built); use server.clipping: fixed",
                               trust)});
  if (c.stop.budget)
    out.push_back(
        {"server.budget",
         fmt::format("server.budget stops the server on the run's one ledger; with "
                     "server.trust: {} every agent has its own: give each agent its budget "
                     "with personal.budgets or personal.tiers.budgets (docs/TRUST.md)",
                     trust)});
  if (t.trust == Trust::local && t.local_coin && c.mechanism.sampling != privacy::Sampling::poisson)
    out.push_back({"server.sampling",
                   "server.local_coin draws each agent's coin in secret (Poisson sampling); "
                   "fixed-size sampling needs the server to choose: use server.sampling: "
                   "poisson or leave server.local_coin out"});
  if (t.trust != Trust::distributed) return;
  if (t.sampled_by == server::Sampler::agents && c.mechanism.sampling != privacy::Sampling::poisson)
    out.push_back({"server.sampling",
                   "server.sampled_by: agents draws each agent's coin in secret (Poisson "
                   "sampling); fixed-size sampling needs the server to choose: use "
                   "server.sampling: poisson or server.sampled_by: server"});
  // The shares of even the whole population could not carry sigma^2.
  if (!server::ShareCalibration(t, f.agents).feasible())
    out.push_back(
        {"server.colluders",
         fmt::format("must be below (1 - server.dropout_padding) x agents.count = {} (the "
                     "shares of the agents beyond the colluders carry the noise)",
                     (1 - t.dropout_padding) * f.agents)});
}

// personal.* (issue 42 sec. 2; docs/TRUST.md "Personal privacy"): each refusal says why.
void check_personal(const Preset& p, const FtsDeConfig& c, const protocol::ExperimentFacts& f,
                    schema::Problems& out) {
  const server::PersonalKeys& k = c.personal;
  if (!k.any()) return;
  const std::string key = !k.tier_fractions.empty()   ? "personal.tiers.fractions"
                          : !k.sampling_rates.empty() ? "personal.sampling_rates"
                          : !k.budgets.empty()        ? "personal.budgets"
                                                      : "personal.q_ref";
  if (!c.server || !c.dp) {
    out.push_back({key, fmt::format("algorithm {} {}: there is no private release to sample or "
                                    "budget; use algorithm dp_fts or dp_fts_de",
                                    p.name, c.server ? "runs without DP" : "has no server")});
    return;
  }
  try {
    server::check_personal(k, f.agents);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();  // starts with the key it names
    out.push_back({what.substr(0, what.find(' ')), what});
    return;
  }
  if (c.mechanism.sampling != privacy::Sampling::poisson)
    out.push_back({"server.sampling",
                   "personal.* selects each agent by its own Poisson coin of probability q_n; "
                   "fixed-size sampling draws one uniform subset, whose amplification bound "
                   "holds only for one common rate: use server.sampling: poisson"});
  if (c.mechanism.clipping == server::Clipping::adaptive)
    out.push_back({"server.clipping",
                   "adaptive clipping's noisy count is accounted at the one rate q; with "
                   "personal.* use server.clipping: fixed"});
  if (c.stop.budget)
    out.push_back({"server.budget",
                   "server.budget stops every agent at once on one ledger; with personal.* give "
                   "each agent its own: personal.budgets or personal.tiers.budgets"});
  const bool budgets = !k.budgets.empty() || !k.tier_budgets.empty();
  const server::TrustOptions& t = c.mechanism.trust;
  // The coin's replace-one event (server::local_coin_event) is built at the one rate q.
  if (t.trust == server::Trust::local && t.local_coin)
    out.push_back({"server.local_coin",
                   "the secret coin's replace-one bound is computed at the one rate "
                   "server.sampling_rate; with personal.* leave server.local_coin out"});
  const bool selection_known =
      t.trust == server::Trust::local ||
      (t.trust == server::Trust::distributed && t.sampled_by == server::Sampler::server);
  if (budgets && selection_known)
    out.push_back(
        {k.budgets.empty() ? "personal.tiers.budgets" : "personal.budgets",
         fmt::format("a personal budget stops an agent on public quantities only, charging it "
                     "every release it is eligible for, selected or not; under server.trust: "
                     "{} an agent is charged only when selected (the server chose it: "
                     "no amplification), so a stop on its ledger would reveal its selections. "
                     "Use server.trust: central, or distributed with server.sampled_by: agents",
                     t.trust == server::Trust::local ? "local"
                                                     : "distributed with "
                                                       "server.sampled_by: server")});
}

void validate(const Preset& p, const FtsDeConfig& c, const protocol::ExperimentFacts& f,
              schema::Problems& out) {
  // Every sub-region is explored by its own agents (Dai et al. 2021, Sec. 3.2: agent n is
  // assigned sub-region n mod P), so P > N would leave sub-regions no agent explores.
  if (c.subregions > f.agents)
    out.push_back(
        {"exploration.subregions", fmt::format("must be in [1, agents.count = {}]", f.agents)});
  if (p.single_region && c.subregions != 1)
    out.push_back({"exploration.subregions",
                   fmt::format("algorithm {} has no distributed exploration (P = 1); use {}_de "
                               "for P > 1",
                               p.name, p.name)});
  agents::check_local_ts(c.agent.local, f, out);
  rff::check_message_lengthscales(c.rff_lengthscales, f.dimension, out);
  if (p.dp_forced && c.dp != p.dp_default)
    out.push_back(
        {"server.dp",
         fmt::format("algorithm {} runs {} DP (server.dp must be {} or left out); {} DP, use "
                     "algorithm {}",
                     p.name, p.dp_default ? "with" : "without", p.dp_default,
                     p.dp_default ? "without" : "with", p.instead)});
  // A name gives its algorithm (issue 39): DP-FTS-DE or FTS-DE with P = 1 would run DP-FTS or
  // FTS (no distributed exploration), trace for trace, under the DE name.
  if (p.server && !p.single_region && c.subregions == 1)
    out.push_back(
        {"exploration.subregions",
         fmt::format("1 gives {} (no distributed exploration) under algorithm {}; set "
                     "exploration.subregions >= 2 (P = 2 is {}'s synthetic setting) or "
                     "use algorithm: {}",
                     p.dp_default ? "DP-FTS" : "FTS", p.name, p.dp_default ? "DP-FTS-DE" : "FTS-DE",
                     p.dp_default ? "dp_fts" : "fts")});
  // A stop rule ends the server's aggregation: `ts` has none to end, and a budget bounds an
  // epsilon that only a private server spends (the keys are refused rather than ignored).
  for (const auto& [key, given] : {std::pair{"server.budget", c.stop.budget.has_value()},
                                   std::pair{"server.stop_p", c.stop.stop_p.has_value()}})
    if (given && !c.server)
      out.push_back({key, fmt::format("algorithm {} has no server (every step is local TS): "
                                      "there is no aggregation to stop; leave it out",
                                      p.name)});
  if (c.server && !c.dp && c.stop.budget)
    out.push_back({"server.budget",
                   fmt::format("algorithm {} runs without DP (server.dp: false) and spends no "
                               "privacy, so there is no epsilon to budget; use algorithm {} for "
                               "DP, or leave server.budget out",
                               p.name, p.dp_forced ? p.instead : "dp_fts_de")});
  // Adaptive clipping adapts the DP mechanism's clip norm: without DP nothing is clipped.
  if (c.mechanism.clipping == server::Clipping::adaptive && (!c.server || !c.dp))
    out.push_back(
        {"server.clipping",
         fmt::format("algorithm {} {}, so there is no clip norm to adapt; use "
                     "algorithm dp_fts or dp_fts_de, or leave server.clipping out",
                     p.name, c.server ? "runs without DP (server.dp: false)" : "has no server")});
  check_trust(p, c, f, out);
  check_personal(p, c, f, out);
  if (!c.server || !c.dp) return;
  try {  // e.g. fixed-size sampling of floor(N q) = 0 agents
    server::DpMechanism::event(c.mechanism, static_cast<std::size_t>(f.agents));
  } catch (const std::invalid_argument& e) {
    out.push_back({"server.sampling_rate", e.what()});
  }
}

std::shared_ptr<const protocol::Algorithm> build(FtsDeConfig c,
                                                 const protocol::ExperimentFacts& f) {
  // Each agent's rate and budget, the tiers drawn once per seed (personal_privacy.hpp).
  if (c.server && c.dp && c.personal.any())
    c.mechanism.personal =
        server::resolve_personal(c.personal, c.mechanism.sampling_rate, f.agents, f.seed);
  if (!c.server) {
    // Standard TS (Dai et al. 2021, sec. 5: the baseline without federation) has no
    // sub-regions: every agent initialises and explores on the whole domain, whatever
    // exploration.* says (a TS curve of an FTS-DE figure config keeps that config's P).
    c.agent.schedule = agents::ExplorationSchedule::local;
    c.subregions = 1;
    c.agent.init_in_region = false;
  }
  return std::make_shared<FtsDeSystem>(c);
}

}  // namespace

const schema::Group<FtsDeConfig>& fts_de_keys() {
  using C = FtsDeConfig;
  using agents::AgentOptions;
  using agents::ExplorationSchedule;
  using schema::at;
  static const auto g =
      schema::Group<C>{}
          .include(agents::agent_keys(), &C::agent)
          .integer("exploration.subregions", &C::subregions, schema::Range::at_least(1),
                   "P: at least 2 for `fts_de` and `dp_fts_de` (with P = 1 they would run FTS / "
                   "DP-FTS, so it is refused), 1 for `fts` and `dp_fts`. Ignored by `ts` "
                   "(standard TS explores the whole domain), so a TS curve can share an FTS-DE "
                   "config")
          .choice("exploration.schedule", at(&C::agent, &AgentOptions::schedule),
                  agents::kExplorationScheduleNames.subset({ExplorationSchedule::inv_sqrt,
                                                            ExplorationSchedule::inv,
                                                            ExplorationSchedule::inv_square}),
                  "1 - p_t: `inv_sqrt` (1/sqrt t, synthetic), `inv` (1/t, real-world), "
                  "`inv_square` (1/t^2)")
          .include(de::weight_keys(), &C::weights)
          // exploration.weights.* change nothing with P = 1 (one sub-region, weight 1) but are
          // not refused there: the papers' configs give them and run their FTS curves with
          // `--set algorithm=fts --set exploration.subregions=1`, as sweeps over the algorithm do.
          .include(rff::message_feature_keys(), message_features())
          .include(agents::local_ts_keys(), at(&C::agent, &AgentOptions::local))
          .boolean("server.dp", &C::dp,
                   "false: FTS / FTS-DE (no subsampling, clipping or noise); fixed by the "
                   "algorithm's name (`fts`, `fts_de`: false; `dp_fts`, `dp_fts_de`: true), so it "
                   "need not be written")
          .include(server::mechanism_keys(), &C::mechanism)
          .include(server::server_stop_keys(), &C::stop)
          .include(server::personal_keys(), &C::personal);
  return g;
}

void register_fts_de_algorithms(schema::Registry<protocol::AlgorithmEntry>& registry) {
  for (const Preset& p : kPresets) {
    FtsDeConfig defaults;
    defaults.name = p.name;
    defaults.server = p.server;
    protocol::AlgorithmEntry e = protocol::make_algorithm_entry<FtsDeConfig>(
        p.name, p.summary, fts_de_keys(), defaults,
        [p](const FtsDeConfig& c, const protocol::ExperimentFacts& f, schema::Problems& out) {
          validate(p, c, f, out);
        },
        [](FtsDeConfig c, const protocol::ExperimentFacts& f) { return build(std::move(c), f); });
    if (!p.dp_default) e.presets.push_back({"server.dp", false});
    if (p.dp_forced)
      e.fixed.push_back({"server.dp", p.dp_default ? "true" : "false",
                         p.dp_default ? "which runs with DP" : "which runs without DP"});
    if (p.single_region) e.fixed.push_back({"exploration.subregions", "1", "which has P = 1"});
    e.privacy_keys = {"server.noise_multiplier", "server.sampling_rate", "server.sampling",
                      "rounds", "agents.count"};
    // Each agent's message is a sample of its own posterior (no broadcast in it), the server a
    // (private) linear aggregation with weights fixed by the release count: it runs on the
    // simulated time line (issue 41; docs/TIME.md). `ts` has no server: its agents only run on
    // their own clocks.
    using K = protocol::ScheduleKind;
    e.traits.schedules = {K::rounds, K::deadline, K::buffered, K::periodic, K::latest};
    // A linear aggregation of the agents' samples: age weights scale its columns.
    e.traits.age_weights = p.server;
    // ts: no messages, no broadcasts; each proposal is a TS step on the completed evaluations.
    e.traits.workers = !p.server;
    registry.add(std::move(e));
  }
}

}  // namespace fbosim::systems
