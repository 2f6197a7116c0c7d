#include "core/event_queue.hpp"

#include <stdexcept>
#include <utility>

namespace fbosim::core {

void EventQueue::schedule(SimTime at, Action action) {
  if (at < now_) throw std::logic_error("EventQueue: event scheduled in the past");
  heap_.push(Event{at, next_seq_++, std::move(action)});
}

void EventQueue::run_until(SimTime until) {
  while (!heap_.empty() && heap_.top().time <= until) {
    Event e = heap_.top();
    heap_.pop();
    now_ = e.time;
    e.action();
  }
  if (until > now_) now_ = until;
}

void EventQueue::run() {
  while (!heap_.empty()) {
    Event e = heap_.top();
    heap_.pop();
    now_ = e.time;
    e.action();
  }
}

}  // namespace fbosim::core
