#pragma once
// The time line of N agents that evaluate back to back (issue 41 sec. 1; DESIGN.md "Time,
// schedules and trust"): each agent starts its next evaluation the instant it completes one,
// if online; an evaluation that would start while its agent is offline waits for the next
// online interval; an agent that goes offline during an evaluation pauses it, and it resumes
// when the agent is back (its duration counts online time only; nothing is lost). An agent
// with no online interval left stops for good (a trace that ends).
// next() yields the completions in time order, ties broken by agent index (not by the order
// they were scheduled: core::EventQueue's (time, insertion) order would make ties follow the
// history of the schedule, which the degenerate case -- equal durations give the
// synchronous rounds' agent order -- forbids). A binary heap of one (time, agent, worker) entry
// per active worker: O(log (N W)) per event, O(N W) memory.
// Workers (schedule.workers = W, Kandasamy et al., AISTATS 2018): an agent runs up to W
// evaluations at once. Its evaluation 0 (the initial design) runs alone; at its completion every
// worker starts one, and each worker starts the agent's next evaluation the instant it completes
// one (asynchronous), or, with `batches`, all workers start together and the next batch waits
// for the last of the batch (synchronous). Evaluations are numbered in the order they start
// (time, then worker), and evaluation k's
// duration is still drawn from the stream (agent, k): with W = 1 nothing changes. Ties of
// completions are broken by agent, then worker. The availability is the agent's: an offline
// agent pauses every worker.
// Replayable: the sequence depends only on the TimingModel and its (seed, run) streams,
// never on an objective, so a replay without evaluating anything gives the same events.
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/timeline/completion.hpp"
#include "sim/timeline/timing_model.hpp"

namespace fbosim::timeline {

/// How agents go on after a completion (a schedule's rules; functions of time alone, so the
/// time line stays free of data).
struct TimelineOptions {
  /// Each agent stops after completing this many evaluations (0, ..., evaluations - 1).
  std::int64_t evaluations = std::numeric_limits<std::int64_t>::max();
  /// The earliest start of an agent's next evaluation after a completion at t (>= t): the
  /// `deadline` schedule's agents wait for the round's end. Empty: t (back to back).
  std::function<Tick(Tick)> hold;
  /// Evaluations in flight per agent (>= 1; see above).
  int workers = 1;
  /// The workers start in batches (synchronous; see above).
  bool batches = false;
};

class Timeline {
 public:
  /// Every agent starts evaluation 0 at time 0 (or at its first online instant).
  explicit Timeline(TimingModel model, TimelineOptions options = {});

  /// The next completion (and the agent's next evaluation scheduled), or nothing when no
  /// agent will complete again. Throws std::overflow_error when an evaluation would complete
  /// at or after kEndOfTime.
  std::optional<Completion> next();
  /// The time of the next completion without taking it (nothing: none left).
  std::optional<Tick> peek_time() const;
  /// Completions yielded so far.
  std::int64_t completed() const { return completed_; }
  const TimingModel& model() const { return model_; }

 private:
  // One evaluation slot of an agent, with its own cursor over the agent's online intervals.
  struct Worker {
    Interval online;            // the current (or next) online interval
    std::int64_t online_j = 0;  // its number
    std::int64_t evaluation = 0;
    Tick start = 0;
    Tick propose = 0;
  };
  struct Agent {
    std::vector<Worker> workers;
    std::int64_t next = 0;  // the number of the agent's next evaluation to start
    bool spread = false;    // every worker started (after evaluation 0's completion)
    int in_flight = 0;      // evaluations started that will complete
  };
  using Entry = std::tuple<Tick, int, int>;  // (completion time, agent, worker)

  void start_evaluation(int n, int w, Tick from);
  bool advance_online(Worker& a, int n);

  TimingModel model_;
  TimelineOptions options_;
  std::vector<Agent> agents_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
  std::int64_t completed_ = 0;
};

}  // namespace fbosim::timeline
