#pragma once
// One selectable `algorithm` (design note "protocols"): it builds the parts of each run
// (agents, optional server, privacy events released before round 0 and after the last round,
// values released after the last round, the agents whose regret is measured) and never sees
// YAML (the registry in sim/ reads the config and constructs it). The engine orders the rounds;
// an algorithm only supplies parts.
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/protocol/agent_policy.hpp"
#include "algorithms/protocol/auditable_release.hpp"
#include "algorithms/protocol/experiment_facts.hpp"
#include "algorithms/protocol/mechanism.hpp"
#include "algorithms/protocol/resource_estimate.hpp"
#include "core/box.hpp"
#include "core/convex_lipschitz_score.hpp"
#include "core/rng.hpp"

namespace fbosim::protocol {

/// The observations an agent made before the run (FTS: the t_n observations of a source
/// agent when it sends its information, sec. 3.1).
struct History {
  Eigen::MatrixXd X;  ///< n x d, one query per row, in the order they were made
  Eigen::VectorXd y;  ///< n observations
};

/// Histories an algorithm needs before its runs: every agent runs `policy` alone (no server)
/// for `init_points` initial points and `rounds` further steps; the engine runs them with their
/// own streams (house rule 2) and, when the objectives are the same in every run (real data),
/// once per experiment.
struct HistoryRequest {
  int init_points = 0;  ///< the policy's initial design size (informational)
  int rounds = 0;       ///< steps after the initial design
  /// The policy agent n follows while its history is made.
  std::function<std::unique_ptr<AgentPolicy>(int agent, const core::Domain& domain)> policy;
};

/// What a run is built from.
struct RunInputs {
  int run = 0;
  int agents = 0;                             ///< N (one objective per agent)
  const core::Domain* domain = nullptr;       ///< the agents' common search space
  const core::RngFactory* streams = nullptr;  ///< the run's streams
  /// Every agent's history when the algorithm asked for them (else null).
  const std::vector<History>* histories = nullptr;
};

/// One value released after the last round besides its privacy event (issue #12: the DP
/// release of BO results): a row of release.csv. Optional fields are empty cells.
struct ReleaseRow {
  int agent = 0;
  std::string quantity;   ///< what was released: "hyperparameter" (a point) or "best_value"
  std::string mechanism;  ///< how: e.g. "exponential", "laplace", "papernot_steinke", or
                          ///< "none" (the non-private reference, not a release)
  std::optional<double> epsilon, delta;  ///< this release's own guarantee
  std::optional<double> sensitivity;     ///< the sensitivity its noise was calibrated to
  double value = 0;                      ///< the released number (for a point: its index)
  std::optional<double> nonprivate;      ///< the same quantity computed without privacy
  std::optional<Eigen::VectorXd> point;  ///< the released point (d-vector), for a point
  /// The noise-free objective at the released point, or the true value the released number
  /// estimates; for a point, regret = the optimum minus f when the optimum is known.
  std::optional<double> f, regret;
  long long evaluations = 0;  ///< objective evaluations the release itself spent
};

/// A query of an objective: the observation y and the noise-free value f (as the engine
/// evaluates them).
struct Observation {
  double y, f;
};

/// What a final release may use besides the state it captured from the agents.
struct ReleaseInputs {
  int run = 0;
  const core::RngFactory* streams = nullptr;  ///< the run's streams
  /// f(x) without noise on agent n's objective (utility reporting: no privacy cost by itself).
  std::function<double(int agent, const Eigen::VectorXd& x)> evaluate;
  /// One query of agent n's objective with noise from rng: a use of the private data, to be
  /// accounted by the release's own event.
  std::function<Observation(int agent, const Eigen::VectorXd& x, core::RngStream& rng)> query;
  /// max f of agent n's objective, when known.
  std::function<std::optional<double>(int agent)> optimum;
  /// The constants of Kusner et al.'s Assumption 2 that agent n's objective certifies, if it
  /// does (datasets::Objective::convex_lipschitz_score). May be empty: none certified.
  std::function<std::optional<core::ConvexLipschitzScore>(int agent)> convex_lipschitz_score;
};

/// What a final release produced: the events it spent (composed by the engine) and its rows.
struct FinalRelease {
  std::vector<privacy::DpEvent> events;
  std::vector<ReleaseRow> rows;
};

struct RunParts {
  std::vector<std::unique_ptr<AgentPolicy>> agents;  ///< one per objective, in agent order
  std::unique_ptr<const Mechanism> server;           ///< null: the agents never communicate
  std::vector<privacy::DpEvent> setup_events;        ///< released before round 0
  std::vector<privacy::DpEvent> final_events;        ///< released after the last round
  /// Values released after the last round (after final_events), with their events: called
  /// once, on the calling thread, while the agents still exist. Empty: none.
  std::function<FinalRelease(const ReleaseInputs&)> final_release;
  std::vector<int> measured;  ///< the agents whose regret and best value are reported
};

/// What a run's privacy ledger composes, known from the config alone (never from the data):
/// the run engine composes exactly these events, one at a time, in this order (the events
/// before round 0, one server release per round the server aggregates, the events after the
/// last round) and checks that the parts it built release the same ones; `fbosim privacy
/// CONFIG` composes the same list without running (issue 29: it used to miss adaptive
/// clipping's count release and the stop rules).
struct PrivacyPlan {
  /// Released before round 0 (RunParts::setup_events).
  std::vector<privacy::DpEvent> setup;
  /// One server release of N agents (Mechanism::event); NoOp without a private server.
  privacy::DpEvent round;
  /// When the server stops aggregating (issue 29; both rules are functions of the config alone,
  /// so stopping reveals nothing). From the first round a rule stops on, the server collects no
  /// messages and broadcasts nothing: the agents receive NoBroadcast (their own TS step) and no
  /// privacy is spent. server_rounds: the server aggregates the messages of rounds
  /// 0 .. server_rounds - 1 at most (DP-FTS-DE's footnote 13: `server.stop_p`).
  int server_rounds = std::numeric_limits<int>::max();
  /// server.budget: the engine aggregates a round only if the epsilon of everything released so
  /// far plus that round's release, under server.accountant at the run's delta, stays <=
  /// budget; the first round that would exceed it and every later one aggregate nothing. Only
  /// with a private server and no events after the last round.
  std::optional<double> budget;
  /// Released after the last round: RunParts::final_events, then the final release's events.
  std::vector<privacy::DpEvent> final;
  /// Whether `round` bounds what a release charges any agent when messages drop out (issue 42:
  /// a secure sum without padding then carries less noise than the plan's; the run's own
  /// per-agent ledger is the guarantee and a forecast from the plan would understate it).
  bool bounds_dropouts = true;
  /// Personal privacy (personal.*, issue 42 sec. 2), empty without it. Per agent: the event a
  /// release charges it at most while it is eligible (its rate q_n; the check of its budget),
  /// and its budget (+inf: none; empty: no personal budgets). The engine stops an agent before
  /// the release that would take it over (run::PersonalStop).
  std::vector<privacy::DpEvent> agent_round;
  std::vector<double> agent_budgets;
  /// Whether a stopped agent keeps sending a zero vector (its noise share in a secure sum under
  /// agent-side sampling) rather than nothing.
  bool stopped_sends_zero = false;
  /// Each agent's tier (personal.tiers: 1.., 0 for the rest), for agents.csv; empty without
  /// tiers.
  std::vector<int> agent_tiers;
};

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  /// The registry name (`algorithm` key), e.g. "dp_fts_de".
  virtual std::string name() const = 0;
  /// The parts of one run. Throws std::invalid_argument for inputs it cannot use (naming why).
  virtual RunParts build(const RunInputs& inputs) const = 0;
  /// Histories to make before the runs, if any.
  virtual std::optional<HistoryRequest> history_request() const { return std::nullopt; }
  /// Every event a run of N agents may release (setup, one round, final), for config
  /// validation: each accountant must support all of them. Empty when nothing is private.
  virtual std::vector<privacy::DpEvent> possible_events(int agents) const = 0;
  /// The events of a whole run of N agents and T rounds that releases everything it may (setup,
  /// every round, final), each as often as it is released: their composition is the most privacy
  /// a run spends, the epsilon config validation checks (finite under every accountant) before
  /// anything runs. Empty when nothing is private.
  virtual std::vector<privacy::DpEvent> run_events(int agents, int rounds) const = 0;
  /// What the ledger of a run of N agents composes (PrivacyPlan): the one source of the stop
  /// rules and of the events both a run and `fbosim privacy CONFIG` compose.
  virtual PrivacyPlan privacy_plan(int agents) const = 0;
  /// The server.csv columns of its rounds (between `time` and `epsilon`).
  virtual std::vector<StatColumn> server_columns() const = 0;
  /// Whether its runs release values after the last round (RunParts::final_release): the
  /// experiment then writes release.csv.
  virtual bool releases_values() const { return false; }
  /// Its private releases an empirical audit can run (`fbosim audit`; auditable_release.hpp),
  /// one of each kind (every agent's and every round's are alike); empty when it releases
  /// nothing private. Throws std::invalid_argument for inputs it cannot audit with.
  virtual std::vector<std::unique_ptr<const AuditableRelease>> auditable_releases(
      const AuditInputs& inputs) const;
  /// What a run decided from its data before round 0 that its CSVs do not show, as (name,
  /// value) pairs for provenance.yaml's `algorithm_facts` (e.g. PO-GP-UCB's curator: sigma_min,
  /// omega and the branch of Algorithm 1), from the inputs of run 0 (AuditInputs: agent 0's
  /// domain, built on first call). The default: none, and nothing is built.
  virtual std::vector<AuditDetail> run_facts(const AuditInputs& inputs) const;
  /// Adds its memory and work to the estimate by which config validation refuses an absurd size
  /// before anything is allocated (resource_estimate.hpp: the dominant terms, each naming its
  /// keys); each system estimates itself. The default adds nothing: only the experiment's
  /// terms count.
  virtual void estimate(const ExperimentFacts& facts, ResourceEstimate& estimate) const;
  /// Whether its releases charge agents unevenly (protocol::Release::charges: a trust model
  /// other than `central`, issue 42): the reader then keeps one ledger per agent
  /// (ExperimentSpec::per_agent_ledgers).
  virtual bool charges_per_agent() const { return false; }
  /// Whether any release is differentially private (server.csv and summary.csv then carry
  /// delta next to epsilon).
  bool is_private(int agents) const;
};

}  // namespace fbosim::protocol
