#pragma once
// One run under an asynchronous schedule (schedule.kind deadline, buffered, periodic or latest;
// issue 41 sec. 2, docs/TIME.md). RunEngine dispatches here; its `rounds` path is untouched.
//   1. the time line first (plan_schedule): every evaluation's proposal and completion instant
//      and every release with the messages it holds, from the timing.* streams alone;
//   2. then the data, segment by segment: segment j holds the evaluations proposed with the
//      broadcast of release j - 1 (segment 0: the initial designs and the proposals made
//      before any release). An evaluation is its agent's propose (streams agent.step and
//      agent.noise keyed by (agent, evaluation number), agent.init for evaluation 0), evaluate,
//      observe, and, for evaluations 0 .. rounds - 1 when a server collects, report (stream
//      agent.message). Agents run in parallel within a segment, each its evaluations in order;
//      then release j: the messages the plan names (an empty slot counts as an unselected
//      agent), stream `server` (j), its event charged by release_charge to each agent in it.
//   The stop rules and personal budgets (schedule_stops, from the time line alone) may suppress
//   a release (server.budget, server.stop_p: no broadcast from then on) or withhold a stopped
//   agent's messages; an agent sees no broadcast once the server or its budget stopped (local
//   TS steps).
//      A trust model (server.trust) sums over the pool (distributed) or sums messages its
//      senders privatised when they sent them (local: Mechanism::send, stream `agent.local`
//      (n, k)), each message charged to its sender at its sending (sent_charge).
// Outputs: trace.csv's `round` is the agent's evaluation number and `time` its completion in
// seconds, rows in completion order (time, then agent); server.csv's `round` is the release
// index and `time` its instant in microseconds; summary row k (best value and regret after
// each agent's evaluation k; an agent whose availability ended keeps its last value) holds the
// largest per-agent epsilon of the releases before the instant every agent had completed
// evaluation k (the last row: everything).
#include <functional>
#include <memory>

#include "algorithms/protocol/mechanism.hpp"
#include "core/thread_pool.hpp"
#include "datasets/objective_factory.hpp"
#include "sim/config/experiment_spec.hpp"
#include "sim/run/release_charge.hpp"
#include "sim/run/run_result.hpp"
#include "sim/run/schedule_plan.hpp"
#include "sim/timeline/tick.hpp"

namespace fbosim::run {

class AsyncEngine {
 public:
  /// Called after every segment with (row, rounds).
  using Progress = std::function<void(int, int)>;

  AsyncEngine(const config::ExperimentSpec& spec, core::ThreadPool& pool,
              std::shared_ptr<const datasets::ObjectiveFamily> family);
  /// Run number `run` (streams keyed by (seed, run)). Throws std::runtime_error for a
  /// non-finite objective value or an agent that never completes its first evaluation.
  RunResult run(int run, const Progress& progress = {}) const;

 private:
  struct Run;
  void start(Run& r) const;
  void segment(Run& r, int j) const;
  /// Agent i's evaluation k proposed and evaluated (not yet observed): several workers.
  void evaluate(Run& r, std::size_t i, std::size_t k, const protocol::Broadcast& seen) const;
  /// Every agent's evaluations with several workers in flight (schedule.workers > 1).
  void in_flight(Run& r) const;
  void release(Run& r, int j) const;
  /// Drops the messages `planned` makes obsolete (all it holds, but under latest).
  void forget(Run& r, const PlannedRelease& planned) const;
  void add_server_row(Run& r, int j, const protocol::RoundStats& stats) const;
  /// Charges each message sent (local: sent_charge) at an instant <= `upto` not yet charged.
  void charge_sent(Run& r, timeline::Tick upto) const;
  /// Throws std::logic_error when release j's event, an agent's own charge (personal rates) or
  /// a secure sum's own charges differ from the plan's (schedule_stops, release_charge).
  void check_charges(const Run& r, int j, const protocol::Release& out) const;
  void record(Run& r) const;
  /// Summary row `row`'s epsilons and agents.csv rows from the ledgers as they are.
  void snapshot(Run& r, std::size_t row) const;
  /// Every row not yet recorded whose instant follows `releases` releases and no more (the
  /// last row excepted: it is recorded after the final events).
  void snapshot_rows(Run& r, std::size_t releases) const;

  const config::ExperimentSpec& spec_;
  core::ThreadPool& pool_;
  std::shared_ptr<const datasets::ObjectiveFamily> family_;
};

}  // namespace fbosim::run
