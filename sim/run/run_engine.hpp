#pragma once
// One run of an experiment, for any algorithm (design note "protocols"). The algorithm builds
// the run's parts; the engine orders them in a few phases:
//   start   objectives of the run, the algorithm's parts (agents, optional server), the privacy
//           events released before round 0 composed
//   agents  round t: every agent that optimises proposes (round 0: its initial design),
//           evaluates and observes, in parallel on the pool; when a server collects, each
//           agent reports its message
//   server  each message is an event at the broadcast time + its latency; the round closes at
//           the deadline (or when the last one is in) and the mechanism releases what arrived;
//           its event is composed (t < T: the last broadcast would go unused). From the round a
//           stop rule ends aggregation on (PrivacyPlan::server_rounds, PrivacyPlan::budget,
//           decided at the start from the config alone by server_stop, privacy_ledger.hpp), no
//           messages, no broadcast, no event
//   finish  the events released after the last round composed, then the values released after
//           it (RunParts::final_release: rows of release.csv and their events)
// Rows go to a trace sink in agent order (deterministic for any thread count). Histories an
// algorithm asks for (FTS's source agents) are made before, each agent alone, with streams of
// their own, once per experiment when the objectives are the same in every run.
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "algorithms/protocol/algorithm.hpp"
#include "core/thread_pool.hpp"
#include "sim/config/experiment_spec.hpp"
#include "sim/run/run_result.hpp"

namespace fbosim::run {

class RunEngine {
 public:
  /// Called after every round with (round, rounds).
  using Progress = std::function<void(int, int)>;

  /// Builds the objective family (loading real data: errors name the path) before any run.
  RunEngine(const config::ExperimentSpec& spec, core::ThreadPool& pool);
  ~RunEngine();
  /// Runs run number `run` (streams keyed by (seed, run)). Throws std::runtime_error if an
  /// objective returns a non-finite value.
  RunResult run(int run, const Progress& progress = {}) const;

 private:
  struct Run;
  void start(Run& r) const;
  void agent_phase(Run& r, int t) const;
  void record(Run& r, int t) const;
  void server_phase(Run& r, int t) const;
  /// A round after the server stopped: no broadcast, a server.csv row with aggregating 0.
  void stopped_round(Run& r, int t) const;
  void add_server_row(Run& r, int t, const protocol::RoundStats& stats) const;
  /// Throws std::logic_error unless the parts built release the events of the algorithm's
  /// privacy plan (what `fbosim privacy CONFIG` and the stop rules compose).
  void check_plan(const Run& r) const;
  /// Charges every agent (the run's ledger, or every agent's with per-agent ledgers).
  void compose(Run& r, const privacy::DpEvent& event) const;
  /// A release's per-agent charges (a trust model other than central, issue 42).
  void charge_release(Run& r, const protocol::AgentCharges& charges) const;
  /// Personal budgets: stops the agents the next release would take over their budgets and
  /// withholds their messages (a zero vector instead under agent-side secure sums).
  void withhold_stopped(Run& r) const;
  /// Charges agent n alone; a std::logic_error without per-agent ledgers.
  void charge(Run& r, int agent, const privacy::DpEvent& event) const;
  /// Per accountant, the epsilon of everything charged so far (the largest agent's).
  std::vector<double> spent(Run& r) const;
  /// Round t's entries of RunResult::epsilon, extra_epsilon, and the agents' spread.
  void put_epsilons(Run& r, int t) const;
  /// agents.csv's rows of round t: every agent's epsilon so far.
  void snapshot_agents(Run& r, int t) const;
  void release(Run& r) const;
  const std::vector<protocol::History>* histories(Run& r) const;

  const config::ExperimentSpec& spec_;
  core::ThreadPool& pool_;
  std::shared_ptr<const datasets::ObjectiveFamily> family_;
  // Histories shared by every run (objectives that do not vary by run), made on first use.
  mutable std::mutex histories_mutex_;
  mutable std::optional<std::vector<protocol::History>> shared_histories_;
};

/// Runs `request` for every agent of `objectives` alone (no server): its initial design, then
/// `rounds` steps, all draws from `streams` (keyed as in a run: agent.init, agent.step,
/// agent.noise, agent.fit). Agents run in parallel on the pool.
std::vector<protocol::History> make_histories(
    const protocol::HistoryRequest& request,
    const std::vector<std::shared_ptr<const datasets::Objective>>& objectives,
    const core::RngFactory& streams, core::ThreadPool& pool);

}  // namespace fbosim::run
