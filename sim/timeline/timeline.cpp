#include "sim/timeline/timeline.hpp"

#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace fbosim::timeline {

Timeline::Timeline(TimingModel model, TimelineOptions options)
    : model_(std::move(model)), options_(std::move(options)) {
  const int n = model_.agents();
  agents_.resize(static_cast<std::size_t>(n));
  std::vector<Entry> initial;
  initial.reserve(agents_.size());
  for (int i = 0; i < n; ++i) {
    Agent& a = agents_[static_cast<std::size_t>(i)];
    const std::optional<Interval> first = model_.availability().interval(i, 0, Interval{});
    a.active = first.has_value();
    if (a.active) a.online = *first;
  }
  for (int i = 0; i < n; ++i)
    if (agents_[static_cast<std::size_t>(i)].active && options_.evaluations > 0)
      start_evaluation(i, 0);
}

bool Timeline::advance_online(Agent& a, int n) {
  const std::optional<Interval> next = model_.availability().interval(n, a.online_j + 1, a.online);
  if (!next) {
    a.active = false;
    return false;
  }
  a.online = *next;
  ++a.online_j;
  return true;
}

void Timeline::start_evaluation(int n, Tick from) {
  Agent& a = agents_[static_cast<std::size_t>(n)];
  // The interval that is current at `from` or the next one ([start, end): offline at end).
  while (a.online.end <= from)
    if (!advance_online(a, n)) return;
  a.start = from < a.online.start ? a.online.start : from;
  Tick left = model_.duration(n, a.evaluation);  // ticks of online time
  Tick at = a.start;
  // Each interval's online time in turn until the evaluation fits (times below 2^62: no
  // overflow in these sums).
  while (left > a.online.end - at) {
    if (a.online.end >= kEndOfTime) break;
    left -= a.online.end - at;
    if (!advance_online(a, n)) return;  // never online again: it never completes
    at = a.online.start;
  }
  if (at + left >= kEndOfTime)
    throw std::overflow_error(fmt::format(
        "timeline: agent {}'s evaluation {} would complete at or after the time line's end "
        "(2^62 microseconds, about 146,000 years)",
        n, a.evaluation));
  heap_.emplace(at + left, n);
}

std::optional<Completion> Timeline::next() {
  if (heap_.empty()) return std::nullopt;
  const auto [time, n] = heap_.top();
  heap_.pop();
  Agent& a = agents_[static_cast<std::size_t>(n)];
  const Completion c{time, n, a.evaluation, a.start};
  ++a.evaluation;
  ++completed_;
  if (a.evaluation >= options_.evaluations) return c;  // done: no heap entry left
  Tick from = time;
  if (options_.hold) {
    from = options_.hold(time);
    if (from < time)
      throw std::logic_error(
          fmt::format("timeline: a hold moved agent {}'s next start before "
                      "its completion ({} < {} ticks)",
                      n, from, time));
  }
  start_evaluation(n, from);
  return c;
}

std::optional<Tick> Timeline::peek_time() const {
  if (heap_.empty()) return std::nullopt;
  return heap_.top().first;
}

}  // namespace fbosim::timeline
