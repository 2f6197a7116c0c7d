#pragma once
// The experiment's own keys (name, algorithm, rounds, runs, seed, standard_error, the
// objective's family and data root, agents.count; server.delta and server.accountant(s);
// network.*), declared on config::ExperimentSpec.
// The config loader (config_loader.cpp) interleaves the groups with the algorithm's and
// family's keys: experiment_keys() without agents.count (objective_keys() inside it), the
// family's keys, agents.count, the algorithm's keys, accounting_keys(), network_keys().
// Defaults set by the reader, not the struct: name (the file's stem) and datasets.root
// ($FBOSIM_DATA), by presets at read time. Conditions that need the built algorithm (agents.count
// >= 2 with DP unless server.delta is set; every accountant supports every release; a finite
// epsilon) stay in the reader.
#include <string>

#include <fmt/format.h>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/systems/algorithm_registry.hpp"
#include "datasets/objective_factory.hpp"
#include "schema/group.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::config {

namespace experiment_keys_detail {

// The experiment's name is the directory results/<name>: one safe path component.
inline bool safe_name(const std::string& name) {
  if (name.empty() || name.size() > 200 || name == "." || name == "..") return false;
  for (const char c : name)
    if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  return true;
}

inline constexpr schema::EnumNames<bool> kStandardErrorNames{{false, "runs"}, {true, "pairs"}};

}  // namespace experiment_keys_detail

/// name .. standard_error, objective.family, datasets.root, agents.count (the family's own
/// objective.* keys are read between datasets.root and agents.count).
inline const schema::Group<ExperimentSpec>& experiment_keys() {
  using E = ExperimentSpec;
  using schema::Range;
  namespace d = experiment_keys_detail;
  static const auto g =
      schema::Group<E>{}
          .text("name", &E::name,
                "experiment name; output goes to `results/<name>/` unless `--out`. One directory "
                "name: 1-200 characters, not `.` or `..`, no `/`, `\\` or control characters")
          .note("the config file's stem")
          .check([](const E& e, schema::Problems& p) {
            if (e.name.empty()) {
              p.push_back({"name", "must not be empty"});
            } else if (!d::safe_name(e.name)) {
              p.push_back({"name",
                           "must be one directory name (results/<name>): at most 200 "
                           "characters, not '.' or '..', without '/', '\\' or control "
                           "characters"});
            }
          })
          .choice(
              "algorithm", &E::algorithm, [] { return systems::algorithm_registry().names(); },
              "the system to run (one registry, `algorithms/systems/algorithm_registry.cpp`); an "
              "unknown name lists them. The DP-FTS-DE family shares every key of this table, and "
              "each name is its paper's algorithm: `ts` (standard TS: no server, every step "
              "local), `fts` (P = 1, no DP), `dp_fts` (P = 1, DP), `fts_de` (distributed "
              "exploration, no DP), `dp_fts_de` (distributed exploration with DP). The name fixes "
              "`server.dp`: a config that contradicts it (`fts` or `fts_de` with `server.dp: "
              "true`, `dp_fts` or `dp_fts_de` with `server.dp: false`, `fts` or `dp_fts` with P > "
              "1) is an error naming the algorithm to use instead. FTS with a target agent "
              "(`fts_target`) and its RGPE / TAF baselines (`rgpe`, `taf`) have keys of their "
              "own (below)")
          .note("dp_fts_de where exploration.subregions >= 2 is given, else dp_fts")
          .integer("rounds", &E::rounds, Range::closed(1, 100000),
                   "BO iterations T after the initial round")
          .integer("runs", &E::runs, Range::closed(1, 100000),
                   "independent runs (each its own objectives and RNG streams); `--runs` "
                   "overrides")
          .integer("seed", &E::seed, Range::at_least(0),
                   "base seed; run r uses the streams of (seed, r); `--seed` overrides")
          .choice("standard_error", &E::se_over_pairs, d::kStandardErrorNames,
                  "summary.csv's `se_*` columns: `runs`, the standard error over the runs' means "
                  "(the independent replications; empty with one run); `pairs`, over every "
                  "(agent, run) pair as if independent, several times narrower because a run's "
                  "agents share its function (what the DP-FTS-DE paper's error bars most likely "
                  "show)")
          .include(datasets::objective_keys(), &E::objective)
          .integer("agents.count", &E::agents, Range::closed(1, 100000),
                   "N; at least 2 with DP under `server.delta_rule: paper` unless `server.delta` "
                   "is set (N^-1.1 must be < 1)");
  return g;
}

/// server.delta_rule, server.delta, server.accountant, server.accountants.
inline const schema::Group<ExperimentSpec>& accounting_keys() {
  using E = ExperimentSpec;
  static const auto g =
      schema::Group<E>{}
          .choice("server.delta_rule", schema::at(&E::server, &ServerSpec::delta_rule),
                  kDeltaRuleNames,
                  "the delta of the DP-FTS-DE family's epsilon where `server.delta` is not "
                  "given: `default`, min(1e-5, 1/(10 N)), so that delta x N <= 0.1 for any N "
                  "(a mechanism that publishes one agent's messages outright with probability "
                  "delta meets (0, delta)-DP); `paper`, N^-1.1, the papers' choice for their N = "
                  "200 (DP-FTS-DE Sec. 5 after McMahan et al. 2018: 0.0029 there, 0.079 at N = "
                  "10). A run with delta x N > 0.1 warns on stderr (summary.csv's `delta_times_n`, "
                  "provenance.yaml's `delta_warning`). Algorithms whose releases fix their delta "
                  "(dp_bo, po_gp_ucb) ignore it")
          .real("server.delta", schema::at(&E::server, &ServerSpec::delta),
                schema::Range::open(0, 1),
                "delta of the reported epsilon; given, it overrides `server.delta_rule`")
          .note("server.delta_rule's")
          .choice(
              "server.accountant", schema::at(&E::server, &ServerSpec::accountant),
              [] { return privacy::accountant_names(); },
              "accountant of the `epsilon` column, an upper bound on everything the run released "
              "so far (setup, rounds, final release): `moments` (the paper's, Abadi et al. "
              "2016), `rdp` (Renyi DP, fractional orders, improved conversion; also fixed-size "
              "sampling), `pld` (privacy-loss distribution: the tightest upper bound), `basic` "
              "(sums of epsilons and deltas of pure and approximate DP events; refuses the "
              "Gaussian releases of DP-FTS-DE, so a config that picks it is refused by "
              "`supports()`). `gdp` (the central-limit approximation, which can fall below the "
              "true epsilon) is refused here: list it in `server.accountants`. A run whose "
              "epsilon would not be finite is refused before it starts. See "
              "docs/USER_GUIDE.md, \"Privacy loss\"")
          .check([](const E& e, schema::Problems& p) {
            const auto* a = privacy::accountant_registry().find(e.server.accountant);
            if (a && !a->sound)
              p.push_back(
                  {"server.accountant",
                   fmt::format("'{}' is an approximation that can fall below the true epsilon "
                               "(gdp gives 5.0647 where the true value is 5.19 at q = 0.01, z = "
                               "1.1, T = 10,000, delta = 1e-5) and the epsilon column holds "
                               "upper bounds only: choose moments, rdp or pld, and list {} in "
                               "server.accountants for an {} comparison column",
                               a->name, a->name, epsilon_column(a->name))});
          })
          .text_list(
              "server.accountants", schema::at(&E::server, &ServerSpec::accountants),
              [] { return privacy::accountant_names(); }, "accountant",
              "comma-separated extra accountants, each an `epsilon_<name>` column of server.csv, "
              "summary.csv and sweep.csv composed from the same releases (`epsilon_gdp_approx` "
              "for `gdp`: an approximation, not a bound); `fbosim run --accountants rdp,pld` "
              "sets it");
  return g;
}

/// network.latency.*, network.deadline, network.dropout.
inline const schema::Group<ExperimentSpec>& network_keys() {
  using E = ExperimentSpec;
  using schema::at;
  using schema::Range;
  const Range ticks = Range::closed(0, LatencySpec::kMaxTicks);
  static const auto g =
      schema::Group<E>{}
          .choice("network.latency.distribution",
                  at(&E::network, &NetworkSpec::latency, &LatencySpec::distribution),
                  std::vector<std::string>{"constant", "uniform", "exponential"},
                  "a message's latency from agent to server: under schedule.kind rounds per "
                  "(agent, round) in ticks; under the other kinds per (agent, evaluation) in "
                  "seconds of the simulated clock, at most 1e9 (docs/TIME.md): `constant` "
                  "(mean), `uniform` (min..max), `exponential` (mean)")
          .real("network.latency.mean", at(&E::network, &NetworkSpec::latency, &LatencySpec::mean),
                ticks, "its parameters")
          .applies_when(
              "network.latency.distribution",
              [](const E& e) { return e.network.latency.distribution != "uniform"; },
              "network.latency.distribution: constant or exponential")
          .real("network.latency.min", at(&E::network, &NetworkSpec::latency, &LatencySpec::min),
                ticks, "`uniform` latency: its minimum")
          .real("network.latency.max", at(&E::network, &NetworkSpec::latency, &LatencySpec::max),
                ticks, "`uniform` latency: its maximum")
          .applies_when(
              {"network.latency.min", "network.latency.max"}, "network.latency.distribution",
              [](const E& e) { return e.network.latency.distribution == "uniform"; },
              "network.latency.distribution: uniform")
          .check([](const E& e, schema::Problems& p) {
            if (e.network.latency.max < e.network.latency.min)
              p.push_back({"network.latency.max",
                           fmt::format("must be in [network.latency.min, {:g}] ticks",
                                       LatencySpec::kMaxTicks)});
          })
          .integer("network.deadline", at(&E::network, &NetworkSpec::deadline), Range::at_least(0),
                   "the server closes a round this many ticks after its broadcast; later replies "
                   "are dropped. 0: wait for every reply. Only under schedule.kind rounds (on the "
                   "clock: schedule.kind deadline)")
          .real("network.dropout", at(&E::network, &NetworkSpec::dropout), Range::right_open(0, 1),
                "probability that an agent's message is lost in a round (under the schedules on "
                "the clock: each evaluation's message, from its own stream)");
  return g;
}

/// schedule.kind, schedule.buffer (buffered), schedule.period (periodic), schedule.deadline
/// (deadline). Read only where a config gives a schedule.* key (an unchanged resolved record
/// for the papers' configs); the timing.* keys (sim/timeline/timing_keys.hpp) follow under any
/// kind but `rounds`.
inline const schema::Group<ExperimentSpec>& schedule_keys() {
  using E = ExperimentSpec;
  using protocol::ScheduleKind;
  using schema::at;
  using schema::Range;
  const auto kind_is = [](ScheduleKind k) {
    return [k](const E& e) { return e.schedule.kind == k; };
  };
  const Range seconds = Range::left_open(0, 1e9);
  static const auto g =
      schema::Group<E>{}
          .choice("schedule.kind", at(&E::schedule, &ScheduleSpec::kind),
                  protocol::kScheduleKindNames,
                  "when the server releases (docs/TIME.md): `rounds`, the papers' synchronous "
                  "rounds (no clock; network.* applies); on the simulated time line of `timing.*`, "
                  "where each agent evaluates back to back and reports after each evaluation: "
                  "`deadline`, rounds of fixed length (an agent that finishes waits for the "
                  "round's end; a message arriving late joins the next round's release), "
                  "`buffered`, a release once K agents have a new message (FedBuff), `periodic`, "
                  "a release every fixed interval, `latest`, a release every fixed interval of "
                  "every agent's newest message (released again until a newer one replaces it). "
                  "The algorithm must support it (ts and the DP-FTS-DE family do)")
          .integer("schedule.buffer", at(&E::schedule, &ScheduleSpec::buffer),
                   Range::closed(0, 100000),
                   "`buffered`: K, the number of agents with a new message that triggers a "
                   "release, at most agents.count; 0: agents.count")
          .note("0 (agents.count)")
          .when(kind_is(ScheduleKind::buffered))
          .real("schedule.period", at(&E::schedule, &ScheduleSpec::period), seconds,
                "`periodic`, `latest`: seconds of simulated time between releases (the first at "
                "one period)")
          .when([](const E& e) {
            return e.schedule.kind == ScheduleKind::periodic ||
                   e.schedule.kind == ScheduleKind::latest;
          })
          .real("schedule.deadline", at(&E::schedule, &ScheduleSpec::deadline), seconds,
                "`deadline`: the length of a round in seconds of simulated time (releases at "
                "its multiples)")
          .when(kind_is(ScheduleKind::deadline))
          .choice("schedule.age_weight", at(&E::schedule, &ScheduleSpec::age_weight),
                  kAgeWeightNames,
                  "`latest`: each message's weight by its age a, the releases since it was made, "
                  "on top of the aggregator's (never renormalised under DP): `one` (1), `fedbuff` "
                  "(1 / sqrt(1 + a)), `fedasync` ((1 + a)^-schedule.age_exponent); heuristics "
                  "borrowed from gradient methods (docs/TIME.md)")
          .when(kind_is(ScheduleKind::latest))
          .real("schedule.age_exponent", at(&E::schedule, &ScheduleSpec::age_exponent),
                Range::left_open(0, 10),
                "`fedasync` age weights: the exponent alpha of (1 + age)^-alpha")
          .when([](const E& e) {
            return e.schedule.kind == ScheduleKind::latest &&
                   e.schedule.age_weight == AgeWeight::fedasync;
          })
          .integer("schedule.releases", at(&E::schedule, &ScheduleSpec::releases),
                   Range::closed(0, 1000000),
                   "`periodic`, `latest`, `deadline`: exactly this many releases, at the fixed "
                   "instants (messages arriving after the last are never released; agents go on "
                   "with their own TS steps); 0: releases until the first instant at or after "
                   "the last message, whose time may depend on data. Required with "
                   "timing.duration.scale_by: records")
          .note("0 (until the last message)")
          .when([](const E& e) {
            return e.schedule.kind == ScheduleKind::periodic ||
                   e.schedule.kind == ScheduleKind::latest ||
                   e.schedule.kind == ScheduleKind::deadline;
          })
          .integer("schedule.workers", at(&E::schedule, &ScheduleSpec::workers),
                   Range::closed(1, 1024),
                   "evaluations in flight per agent (Kandasamy et al. 2018): after its initial "
                   "design every worker starts one; each new query is a Thompson sample given the "
                   "completed evaluations only. `ts` only")
          .when([](const E& e) { return e.schedule.kind != ScheduleKind::rounds; })
          .boolean("schedule.batches", at(&E::schedule, &ScheduleSpec::batches),
                   "with schedule.workers: the workers start together and the next batch waits "
                   "for the whole batch to complete (synchronous parallel TS); false: each "
                   "worker starts anew the instant it completes (asynchronous)")
          .when([](const E& e) { return e.schedule.kind != ScheduleKind::rounds; });
  return g;
}

}  // namespace fbosim::config
