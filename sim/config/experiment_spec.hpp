#pragma once
// A validated experiment: everything a run needs, with the config key of every field in its
// comment. Produced by ConfigLoader from YAML (+ --set overrides): the keys every algorithm
// shares are here; the algorithm's own keys are read by its registry entry into `system`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <memory>

#include "algorithms/protocol/algorithm.hpp"
#include "algorithms/protocol/schedule_kind.hpp"
#include "datasets/objective_factory.hpp"
#include "datasets/objective_family_entry.hpp"
#include "schema/enum_names.hpp"
#include "sim/timeline/timing_spec.hpp"

namespace fbosim::config {

/// Latency of an agent's reply: under schedule.kind rounds in integer ticks (1 tick = 1 ms by
/// convention); under the schedules on the clock in seconds, per (agent, evaluation)
/// (run::MessageArrivals, docs/TIME.md).
struct LatencySpec {
  /// The largest latency parameter accepted: 1e12 ticks (30 years at 1 ms), far from the int64
  /// range of event times.
  static constexpr double kMaxTicks = 1e12;
  std::string distribution =
      "constant";   ///< network.latency.distribution: constant|uniform|exponential
  double mean = 0;  ///< network.latency.mean (constant, exponential)
  double min = 0;   ///< network.latency.min (uniform)
  double max = 0;   ///< network.latency.max (uniform)
};

struct NetworkSpec {
  LatencySpec latency;
  std::int64_t deadline = 0;  ///< network.deadline: ticks after the broadcast; 0 = wait for all
  double dropout = 0.0;       ///< network.dropout: probability a message is lost (a round's; on the
                              ///< clock, an evaluation's)
};

/// schedule.age_weight: the weight of a message of age a (the releases since it was made; above
/// 0 only under `latest`), on top of the aggregator's: `one` (1), `fedbuff` (1 / sqrt(1 + a),
/// FedBuff's staleness scaling, Nguyen et al. 2022), `fedasync` ((1 + a)^-alpha, FedAsync's
/// polynomial staleness function, Xie, Koyejo & Gupta 2019): heuristics borrowed from gradient
/// methods, in (0, 1] and fixed by the time line (run::age_weight).
enum class AgeWeight { one, fedbuff, fedasync };
inline constexpr schema::EnumNames<AgeWeight> kAgeWeightNames{
    {AgeWeight::one, "one"}, {AgeWeight::fedbuff, "fedbuff"}, {AgeWeight::fedasync, "fedasync"}};

/// schedule.*: when the server releases (docs/TIME.md). Every kind but `rounds` runs on the
/// simulated time line of `timing.*` (sim/run/async_engine.hpp).
struct ScheduleSpec {
  protocol::ScheduleKind kind = protocol::ScheduleKind::rounds;  ///< schedule.kind
  int buffer = 0;         ///< schedule.buffer: K (buffered); 0 until read: agents.count
  double period = 1.0;    ///< schedule.period: seconds between releases (periodic, latest)
  double deadline = 1.0;  ///< schedule.deadline: the length of a round in seconds (deadline)
  AgeWeight age_weight = AgeWeight::one;  ///< schedule.age_weight (latest)
  double age_exponent = 0.5;              ///< schedule.age_exponent: alpha (fedasync)
  int workers = 1;  ///< schedule.workers: evaluations in flight per agent (ts)
  /// schedule.batches: the workers start together, the next batch when all completed
  /// (Kandasamy et al.'s synchronous TS) instead of each at its own completion.
  bool batches = false;
  /// schedule.releases: exactly this many releases, at the fixed instants (periodic, latest,
  /// deadline), whatever the agents send; 0: until the first instant at or after the last
  /// message. A count fixed in advance (required where durations depend on data).
  int releases = 0;
};

/// output.time_grid, output.time_end, output.target_regret: summary_time.csv and
/// time_to_target.csv under a schedule other than `rounds` (docs/TIME.md, "Outputs"); read only
/// where a config gives one.
struct TimeOutputSpec {
  int grid = 101;             ///< output.time_grid: points of the grid, 0 and end included
  std::optional<double> end;  ///< output.time_end (seconds; none: the last completion)
  std::optional<double> target_regret;  ///< output.target_regret (none: no time_to_target.csv)
};

/// server.delta_rule: the delta of a run that gives no server.delta. `standard` (written
/// `default`): min(1e-5, 1/(10 N)), so that delta x N <= 0.1 for any N; `paper`: N^-1.1, the
/// DP-FTS-DE paper's (Sec. 5, after McMahan et al. 2018), 0.0029 at its N = 200 but 0.079 at
/// N = 10.
enum class DeltaRule { standard, paper };
inline constexpr schema::EnumNames<DeltaRule> kDeltaRuleNames{{DeltaRule::standard, "default"},
                                                              {DeltaRule::paper, "paper"}};
/// The delta of `rule` for N agents.
double rule_delta(DeltaRule rule, int agents);
/// delta x N above this draws a warning: by the union bound, the chance that some agent's
/// guarantee fails may then exceed 10 %.
inline constexpr double kDeltaTimesAgentsWarning = 0.1;

/// How privacy is accounted (the keys keep the `server.` prefix of the DP-FTS-DE configs).
struct ServerSpec {
  DeltaRule delta_rule = DeltaRule::standard;  ///< server.delta_rule
  std::optional<double> delta;                 ///< server.delta (default: server.delta_rule's)
  std::string accountant = "moments";          ///< server.accountant: the `epsilon` column
  /// server.accountants (comma-separated; `fbosim run --accountants`): extra columns
  /// epsilon_<name> (epsilon_column), composed from the same events.
  std::vector<std::string> accountants;
};

/// The column of an extra accountant in server.csv, summary.csv and sweep.csv: epsilon_<name>,
/// or epsilon_<name>_approx where its epsilon is an approximation, not a bound (gdp).
std::string epsilon_column(const std::string& accountant);

struct ExperimentSpec {
  std::string name;                     ///< name (default: the config file's stem)
  std::string algorithm = "dp_fts_de";  ///< algorithm: a registry name (algorithm_registry.hpp)
  int rounds = 60;                      ///< rounds: BO iterations after the initial round
  int runs = 5;                         ///< runs
  std::uint64_t seed = 0;               ///< seed
  /// standard_error: summary.csv's s.e. over the runs' means (false, the independent
  /// replications) or over every (agent, run) pair (true; agents of one run share a function).
  bool se_over_pairs = false;
  int agents = 200;                   ///< agents.count
  datasets::ObjectiveSpec objective;  ///< objective.*, datasets.root
  /// The family's domain for these settings (its registry entry's shape(): grid or box,
  /// dimension, points), which estimates and checks ask instead of the family's name.
  datasets::ObjectiveShape objective_shape;
  /// The configured algorithm (built by the registry from the algorithm's own keys).
  std::shared_ptr<const protocol::Algorithm> system;
  ServerSpec server;      ///< server.delta, server.accountant(s)
  NetworkSpec network;    ///< network.*
  ScheduleSpec schedule;  ///< schedule.*
  /// timing.*: read only under a schedule other than `rounds` (the papers' rounds have no
  /// clock); timing.availability.trace resolved against the config file's directory.
  timeline::TimingSpec timing;
  TimeOutputSpec time_output;  ///< output.time_grid, output.time_end, output.target_regret

  /// Whether a run keeps one privacy ledger per agent (run::AgentPrivacy; agents.csv, the
  /// epsilon_median and epsilon_p90 columns): set by the reader where agents can be charged
  /// unevenly (a schedule other than `rounds`, a trust model other than `central`, personal
  /// rates or budgets). Off, every agent is charged for every release and one ledger is exact.
  bool per_agent_ledgers = false;

  /// Set by the reader: the run's delta is the server's (server.delta or its rule), a guarantee
  /// per agent among N (the DP-FTS-DE family), not a release's own (dp_bo, po_gp_ucb).
  bool delta_per_agent = false;

  /// delta for the accountant: server.delta or server.delta_rule's.
  double delta() const;
  /// delta x N where the run is private and its delta is per agent, else none.
  std::optional<double> delta_times_agents() const;
  /// The warning of a private run whose delta x N exceeds kDeltaTimesAgentsWarning, naming
  /// delta, N and 1/(10 N); "" when there is none.
  std::string delta_warning() const;
  /// What the run's epsilon protects under a schedule other than rounds (provenance.yaml's
  /// epsilon_notion): the schedule's, or where the durations depend on data that of
  /// timeline::kDataDependentNotion.
  const char* epsilon_notion() const;
  /// Whether any release of a run is differentially private (delta is then reported).
  bool is_private() const { return system && system->is_private(agents); }
};

}  // namespace fbosim::config
