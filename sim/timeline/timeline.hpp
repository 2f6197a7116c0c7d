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
// synchronous rounds' agent order -- forbids). A binary heap of one (time, agent) entry per
// active agent: O(log N) per event, O(N) memory.
// Replayable: the sequence depends only on the TimingModel and its (seed, run) streams,
// never on an objective, so a replay without evaluating anything gives the same events.
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
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
  struct Agent {
    Interval online;            // the current (or next) online interval
    std::int64_t online_j = 0;  // its number
    std::int64_t evaluation = 0;
    Tick start = 0;
    bool active = true;
  };
  using Entry = std::pair<Tick, int>;  // (completion time, agent)

  void start_evaluation(int n, Tick from);
  bool advance_online(Agent& a, int n);

  TimingModel model_;
  TimelineOptions options_;
  std::vector<Agent> agents_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
  std::int64_t completed_ = 0;
};

}  // namespace fbosim::timeline
