#include "sim/timeline/timeline.hpp"

#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace fbosim::timeline {

Timeline::Timeline(TimingModel model, TimelineOptions options)
    : model_(std::move(model)), options_(std::move(options)) {
  if (options_.workers < 1)
    throw std::invalid_argument(
        fmt::format("timeline: workers must be at least 1, got {}", options_.workers));
  const int n = model_.agents();
  agents_.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    Agent& a = agents_[static_cast<std::size_t>(i)];
    const std::optional<Interval> first = model_.availability().interval(i, 0, Interval{});
    if (!first) continue;  // never online: no worker
    a.workers.assign(static_cast<std::size_t>(options_.workers), Worker{*first, 0, 0, 0, 0});
  }
  for (int i = 0; i < n; ++i)
    if (!agents_[static_cast<std::size_t>(i)].workers.empty()) start_evaluation(i, 0, 0);
}

bool Timeline::advance_online(Worker& a, int n) {
  const std::optional<Interval> next = model_.availability().interval(n, a.online_j + 1, a.online);
  if (!next) return false;
  a.online = *next;
  ++a.online_j;
  return true;
}

void Timeline::start_evaluation(int n, int w, Tick from) {
  Agent& agent = agents_[static_cast<std::size_t>(n)];
  if (agent.next >= options_.evaluations) return;  // its last evaluation has started
  Worker& a = agent.workers[static_cast<std::size_t>(w)];
  a.evaluation = agent.next++;
  a.propose = from;
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
  heap_.emplace(at + left, n, w);
  ++agent.in_flight;
}

std::optional<Completion> Timeline::next() {
  if (heap_.empty()) return std::nullopt;
  const auto [time, n, w] = heap_.top();
  heap_.pop();
  Agent& agent = agents_[static_cast<std::size_t>(n)];
  const Worker& a = agent.workers[static_cast<std::size_t>(w)];
  const Completion c{time, n, a.evaluation, a.start, w, a.propose};
  ++completed_;
  --agent.in_flight;
  // Synchronous batches: the next batch waits for the last of this one.
  if (options_.batches && agent.in_flight > 0) return c;
  Tick from = time;
  if (options_.hold) {
    from = options_.hold(time);
    if (from < time)
      throw std::logic_error(
          fmt::format("timeline: a hold moved agent {}'s next start before "
                      "its completion ({} < {} ticks)",
                      n, from, time));
  }
  if (agent.spread && !options_.batches) {
    start_evaluation(n, w, from);
    return c;
  }
  // Evaluation 0 or a whole batch completed: every worker starts one, in worker order.
  agent.spread = true;
  for (int v = 0; v < options_.workers; ++v) start_evaluation(n, v, from);
  return c;
}

std::optional<Tick> Timeline::peek_time() const {
  if (heap_.empty()) return std::nullopt;
  return std::get<0>(heap_.top());
}

}  // namespace fbosim::timeline
