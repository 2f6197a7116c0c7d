#include "sim/run/schedule_plan.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/run/message_arrivals.hpp"
#include "sim/timeline/timeline.hpp"
#include "sim/timeline/timing_model.hpp"

namespace fbosim::run {

namespace {

using protocol::ScheduleKind;
using timeline::Tick;

// The interval of the schedules that release at fixed instants (periodic, latest, deadline), in
// ticks.
Tick release_interval(const config::ScheduleSpec& s) {
  if (s.kind == ScheduleKind::periodic || s.kind == ScheduleKind::latest)
    return timeline::duration_ticks(s.period, "schedule.period");
  if (s.kind == ScheduleKind::deadline)
    return timeline::duration_ticks(s.deadline, "schedule.deadline");
  return 0;
}

// Each agent's newest message and the releases made of them. Under latest a released message
// stays for the next releases until a newer one replaces it; otherwise a release empties it.
class ReleaseBook {
 public:
  ReleaseBook(int agents, const config::ScheduleSpec& spec)
      : newest_(static_cast<std::size_t>(agents), -1),
        arrived_(static_cast<std::size_t>(agents), -1),
        fresh_(static_cast<std::size_t>(agents), false),
        born_(static_cast<std::size_t>(agents), 0),
        spec_(spec) {}

  // Agent n's message of evaluation k arrives (an older one is discarded); it is made before
  // the next release. One older than a message of the agent's that arrived before it (overtaken
  // in transit by a shorter latency) is discarded: the server keeps the newest by evaluation.
  void arrive(int n, int k) {
    const auto i = static_cast<std::size_t>(n);
    if (k <= arrived_[i]) return;
    arrived_[i] = k;
    if (!fresh_[i]) ++count_;
    newest_[i] = k;
    fresh_[i] = true;
    born_[i] = static_cast<int>(releases_.size());
  }
  // Agents with a message in no release yet.
  int count() const { return count_; }
  void release(Tick time) {
    if (releases_.size() >= kMaxReleases) {
      const bool period = spec_.kind != ScheduleKind::deadline;
      throw std::invalid_argument(fmt::format(
          "{}: {:g} s plans more than {} releases in a run (the agents' evaluations last far "
          "longer): choose a longer one",
          period ? "schedule.period" : "schedule.deadline", period ? spec_.period : spec_.deadline,
          kMaxReleases));
    }
    const bool keep = spec_.kind == ScheduleKind::latest;
    const int j = static_cast<int>(releases_.size());
    PlannedRelease r{time, {}, {}};
    for (std::size_t n = 0; n < newest_.size(); ++n) {
      if (newest_[n] < 0) continue;
      r.messages.emplace_back(static_cast<int>(n), newest_[n]);
      r.ages.push_back(j - born_[n]);
      fresh_[n] = false;
      if (!keep) newest_[n] = -1;
    }
    fresh_released_.push_back(count_ > 0);
    count_ = 0;
    releases_.push_back(std::move(r));
  }
  int made() const { return static_cast<int>(releases_.size()); }
  // The releases, without those at the end that hold no new message: fixed instants after the
  // last message release nothing of anyone's not released before. A count fixed in advance
  // (schedule.releases) keeps them: they happen whoever sent.
  std::vector<PlannedRelease> take() {
    while (spec_.releases == 0 && !releases_.empty() && !fresh_released_.back()) {
      releases_.pop_back();
      fresh_released_.pop_back();
    }
    return std::move(releases_);
  }

 private:
  std::vector<int> newest_;   // the agent's newest message (evaluation), -1: none
  std::vector<int> arrived_;  // the newest message of the agent that ever arrived, -1: none
  std::vector<bool> fresh_;   // that message is in no release yet
  std::vector<int> born_;     // the index of the first release after it arrived
  int count_ = 0;             // agents whose newest message is fresh
  const config::ScheduleSpec& spec_;
  std::vector<PlannedRelease> releases_;
  std::vector<bool> fresh_released_;  // per release: whether it held a new message
};

}  // namespace

SchedulePlan plan_schedule(const config::ExperimentSpec& spec, const core::RngFactory& streams,
                           bool reports) {
  const config::ScheduleSpec& s = spec.schedule;
  if (s.kind == ScheduleKind::rounds)
    throw std::logic_error("plan_schedule: schedule.kind rounds has no time line");
  const int rounds = spec.rounds;
  const Tick every = release_interval(s);
  timeline::TimelineOptions options;
  options.evaluations = rounds + 1;
  options.workers = s.workers;
  options.batches = s.batches;
  // deadline: the next evaluation starts at the round's end (a completion at it: at once).
  if (s.kind == ScheduleKind::deadline)
    options.hold = [every](Tick t) { return (t + every - 1) / every * every; };
  timeline::Timeline line(timeline::TimingModel::from_spec(spec.timing, spec.agents, streams),
                          options);

  SchedulePlan plan;
  plan.evaluations.resize(static_cast<std::size_t>(spec.agents));
  ReleaseBook book(spec.agents, s);
  Tick next_release = every;  // periodic, deadline
  // Messages travel from completion to arrival (network.*; none lost and no latency: each
  // arrives at its completion, today's plan). The release a message joins is decided by its
  // arrival: the first fixed instant at or after it, or the K-th arrival's.
  MessageArrivals transit(spec.network, streams);
  // Every arrival and fixed release instant before `bound`, in time order; an arrival at a
  // release's instant is in it (at one instant the messages come first, then the releases).
  const auto deliver_before = [&](Tick bound) {
    for (;;) {
      const std::optional<Tick> a = transit.next_time();
      const bool arrival = a && *a < bound;
      if (every > 0 && next_release < bound && !(arrival && *a <= next_release) &&
          (s.releases == 0 || book.made() < s.releases)) {
        book.release(next_release);
        next_release += every;
        continue;
      }
      if (!arrival) return;
      const Arrival m = transit.take();
      book.arrive(m.agent, m.evaluation);
      if (s.kind == ScheduleKind::buffered && book.count() == s.buffer) book.release(m.time);
    }
  };
  while (const std::optional<timeline::Completion> c = line.next()) {
    // Later arrivals are at or after this completion: those before it are final.
    deliver_before(c->time);
    // By evaluation number (with several workers they complete out of order).
    auto& mine = plan.evaluations[static_cast<std::size_t>(c->agent)];
    const auto k = static_cast<int>(c->evaluation);
    if (mine.size() <= static_cast<std::size_t>(k))
      mine.resize(static_cast<std::size_t>(k) + 1, PlannedEvaluation{0, -1, 0});
    mine[static_cast<std::size_t>(k)] = {c->propose, c->time, 0};
    plan.order.push_back(*c);
    if (!reports || k >= rounds) continue;
    transit.send(c->agent, k, c->time);
  }
  while (const std::optional<Tick> a = transit.next_time()) deliver_before(*a + 1);
  if (s.releases > 0) {
    // Exactly schedule.releases: the instants after the last message too (messages after the
    // last instant are never released).
    for (; book.made() < s.releases; next_release += every) book.release(next_release);
  } else if (every > 0 && book.count() > 0) {
    book.release(next_release);
  }
  plan.releases = book.take();
  // An evaluation that never completes while a later one does (several workers of an agent
  // whose availability ends): config refuses workers with such availability.
  for (std::size_t n = 0; n < plan.evaluations.size(); ++n)
    for (const PlannedEvaluation& e : plan.evaluations[n])
      if (e.complete < 0)
        throw std::logic_error(fmt::format(
            "plan_schedule: agent {} has an evaluation that never completes before one that "
            "does",
            n));

  // The broadcast each proposal sees: the releases at or before its instant.
  std::vector<Tick> times;
  times.reserve(plan.releases.size());
  for (const PlannedRelease& r : plan.releases) times.push_back(r.time);
  for (auto& mine : plan.evaluations)
    for (std::size_t k = 1; k < mine.size(); ++k)
      mine[k].broadcast = static_cast<int>(
          std::upper_bound(times.begin(), times.end(), mine[k].propose) - times.begin());
  return plan;
}

std::vector<AgentStep> agent_steps(const std::vector<PlannedEvaluation>& evaluations) {
  std::vector<AgentStep> steps;
  steps.reserve(2 * evaluations.size());
  for (std::size_t k = 0; k < evaluations.size(); ++k) {
    steps.push_back({evaluations[k].propose, true, k});
    steps.push_back({evaluations[k].complete, false, k});
  }
  std::sort(steps.begin(), steps.end(), [](const AgentStep& a, const AgentStep& b) {
    if (a.time != b.time) return a.time < b.time;
    if (a.propose != b.propose) return !a.propose;  // completions first
    return a.evaluation < b.evaluation;
  });
  return steps;
}

}  // namespace fbosim::run
