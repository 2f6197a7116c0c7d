#pragma once
// Discrete-event core (house rule 3): integer simulated time, events ordered by (time,
// insertion sequence), so ties resolve in the order events were scheduled.
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace fbosim::core {

using SimTime = std::int64_t;  ///< simulated time in integer ticks (1 tick = 1 ms by convention)

class EventQueue {
 public:
  using Action = std::function<void()>;

  /// Schedules `action` at absolute time `at` (must not be before now()).
  void schedule(SimTime at, Action action);
  /// Runs events in (time, sequence) order until the queue is empty or the next event is
  /// later than `until`; now() is then `until` (or the last event's time if the queue emptied).
  void run_until(SimTime until);
  /// Runs every event.
  void run();

  SimTime now() const { return now_; }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }

 private:
  struct Event {
    SimTime time;
    std::uint64_t seq;
    Action action;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
  };
  std::priority_queue<Event, std::vector<Event>, Later> heap_;
  SimTime now_ = 0;
  std::uint64_t next_seq_ = 0;
};

}  // namespace fbosim::core
