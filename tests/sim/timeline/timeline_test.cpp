#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "core/rng.hpp"
#include "sim/timeline/always_online.hpp"
#include "sim/timeline/constant_duration.hpp"
#include "sim/timeline/timeline.hpp"
#include "sim/timeline/trace_availability.hpp"

using namespace fbosim::timeline;
using Catch::Matchers::Contains;
using fbosim::core::RngFactory;

namespace {
TimingModel constant_model(double seconds, int agents, std::unique_ptr<Availability> a = nullptr,
                           TierSpec tiers = {}, RngFactory rf = RngFactory(1, 0)) {
  if (!a) a = std::make_unique<AlwaysOnline>();
  return TimingModel(std::make_unique<ConstantDuration>(seconds), DeviceTiers(tiers, agents, rf),
                     std::move(a), rf);
}

std::unique_ptr<Availability> trace(const std::string& text, int agents) {
  std::istringstream in(text);
  return std::make_unique<TraceAvailability>(OnlineTrace::parse(in, "t.csv"), agents);
}

std::vector<Completion> take(Timeline& t, std::size_t count) {
  std::vector<Completion> out;
  while (out.size() < count) {
    const std::optional<Completion> c = t.next();
    if (!c) break;
    out.push_back(*c);
  }
  return out;
}

TimingSpec busy_spec() {
  TimingSpec s;
  s.duration.model = DurationKind::lognormal;
  s.duration.mean = 1.0;
  s.duration.sigma = 0.8;
  s.tiers = TierSpec{{0.25}, {4.0}};
  s.availability.model = AvailabilityKind::exponential;
  s.availability.on = 5.0;
  s.availability.off = 2.0;
  return s;
}
}  // namespace

TEST_CASE("timeline: equal durations give synchronous rounds in agent order") {
  Timeline t(constant_model(1.5, 4));
  const std::vector<Completion> c = take(t, 12);
  REQUIRE(c.size() == 12);
  for (std::size_t i = 0; i < c.size(); ++i) {
    const auto round = static_cast<std::int64_t>(i / 4);
    CHECK(c[i].agent == static_cast<int>(i % 4));
    CHECK(c[i].evaluation == round);
    CHECK(c[i].time == (round + 1) * 1'500'000);
    CHECK(c[i].start == round * 1'500'000);
  }
  CHECK(t.completed() == 12);
  CHECK(t.peek_time() == 6'000'000);
}

TEST_CASE("timeline: ties are broken by agent index, not by the order they were scheduled") {
  // One of three agents twice as slow (chosen by the stream timing.tier): a seed where it is not
  // agent 0, so that at t = 2 s the slow agent's completion was scheduled first (at time 0) and
  // the fast agents' later (at 1 s); in agent order they still come 0, 1, 2.
  std::uint64_t seed = 1;
  while (DeviceTiers(TierSpec{{1.0 / 3}, {2.0}}, 3, RngFactory(seed, 0)).tier(0) != 0) ++seed;
  Timeline t(constant_model(1.0, 3, nullptr, TierSpec{{1.0 / 3}, {2.0}}, RngFactory(seed, 0)));
  const std::vector<Completion> c = take(t, 5);
  REQUIRE(c.size() == 5);
  CHECK(c[0].time == 1'000'000);
  CHECK(c[1].time == 1'000'000);
  for (std::size_t i = 2; i < 5; ++i) {
    CHECK(c[i].time == 2'000'000);
    CHECK(c[i].agent == static_cast<int>(i - 2));
  }
}

TEST_CASE("timeline: integer ticks keep sums exact where doubles drift") {
  Timeline t(constant_model(0.1, 1));
  std::optional<Completion> last;
  double sum = 0;
  for (int i = 0; i < 100000; ++i) {
    last = t.next();
    sum += 0.1;
  }
  CHECK(last->time == 10'000'000'000);  // 100000 x 0.1 s, exactly
  CHECK(sum != 10000.0);                // what a double clock would have said
}

TEST_CASE("timeline: an evaluation waits for its agent to be online, pauses while offline") {
  // Online [0, 1) and [3, 5) s, then never again; each evaluation needs 0.7 s online.
  Timeline t(constant_model(0.7, 1, trace("agent,start,end\n0,0,1\n0,3,5", 1)));
  const std::vector<Completion> c = take(t, 10);
  // (time, agent, evaluation, start, worker, propose)
  const std::vector<Completion> expected{{700'000, 0, 0, 0, 0, 0},
                                         {3'400'000, 0, 1, 700'000, 0, 700'000},  // 0.3 s, pause
                                         {4'100'000, 0, 2, 3'400'000, 0, 3'400'000},
                                         {4'800'000, 0, 3, 4'100'000, 0, 4'100'000}};
  CHECK(c == expected);  // the fifth needs 0.7 s but has 0.2 s left: it never completes
  // 0.5 s evaluations end exactly at the interval's end at 1 s; the next waits until 3 s.
  Timeline u(constant_model(0.5, 1, trace("agent,start,end\n0,0,1\n0,3,5", 1)));
  const std::vector<Completion> d = take(u, 10);
  REQUIRE(d.size() == 6);
  CHECK(d[1] == Completion{1'000'000, 0, 1, 500'000, 0, 500'000});
  // Proposed at 1 s (its agent completed then), started when back online at 3 s.
  CHECK(d[2] == Completion{3'500'000, 0, 2, 3'000'000, 0, 1'000'000});
  CHECK(d[5] == Completion{5'000'000, 0, 5, 4'500'000, 0, 4'500'000});
  // An agent first online at 2 s starts then.
  Timeline w(constant_model(1.0, 2, trace("agent,start,end\n0,0,10\n1,2,10", 2)));
  const std::vector<Completion> e = take(w, 3);
  CHECK(e[0] == Completion{1'000'000, 0, 0, 0, 0, 0});
  CHECK(e[1] == Completion{2'000'000, 0, 1, 1'000'000, 0, 1'000'000});
  CHECK(e[2] == Completion{3'000'000, 0, 2, 2'000'000, 0, 2'000'000});
  CHECK(take(w, 1)[0] == Completion{3'000'000, 1, 0, 2'000'000, 0, 0});
}

TEST_CASE("timeline: replayable from its seed without any objective") {
  const auto run = [](std::uint64_t seed, int agents) {
    Timeline t(TimingModel::from_spec(busy_spec(), agents, RngFactory(seed, 0)));
    return take(t, 5000);
  };
  const std::vector<Completion> a = run(3, 50);
  CHECK(a == run(3, 50));
  CHECK(a != run(4, 50));
  // Events come in (time, agent) order, and each agent's evaluations in sequence.
  std::vector<std::int64_t> next_evaluation(50, 0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (i > 0)
      CHECK((a[i - 1].time < a[i].time ||
             (a[i - 1].time == a[i].time && a[i - 1].agent < a[i].agent)));
    CHECK(a[i].evaluation == next_evaluation[static_cast<std::size_t>(a[i].agent)]++);
    CHECK(a[i].start < a[i].time);
  }
}

TEST_CASE("timeline: adding an agent shifts no other agent's durations or availability") {
  TimingSpec s = busy_spec();
  s.tiers = {};  // tiers are ranks over all agents: the one part that may move (a boundary)
  const auto first_agents = [&](int agents) {
    Timeline t(TimingModel::from_spec(s, agents, RngFactory(9, 0)));
    std::vector<Completion> out;
    while (const std::optional<Completion> c = t.next()) {
      if (c->time > 200'000'000) break;
      if (c->agent < 5) out.push_back(*c);
    }
    return out;
  };
  const std::vector<Completion> five = first_agents(5);
  CHECK(five.size() > 300);
  CHECK(five == first_agents(6));
}

TEST_CASE("timeline: a duration past the time line's end is an error naming the agent") {
  TimingModel m = constant_model(1e9, 2, nullptr, TierSpec{{0.5}, {1e6}});
  CHECK_THROWS_WITH(
      Timeline(std::move(m)),
      Contains("timing.duration: a duration of 1e+15 s is outside") && Contains("(agent "));
}

TEST_CASE("timeline: options stop each agent after its evaluations and hold its next start") {
  TimelineOptions o;
  o.evaluations = 3;
  // The deadline schedule's hold: the next start at the next multiple of 2 s.
  const Tick two = 2 * kTicksPerSecond;
  o.hold = [two](Tick t) { return (t + two - 1) / two * two; };
  Timeline t(constant_model(1.5, 2), o);
  const std::vector<Completion> c = take(t, 100);
  // Each agent: [0, 1.5], wait, [2, 3.5], wait, [4, 5.5]; then nothing.
  REQUIRE(c.size() == 6);
  for (std::size_t i = 0; i < c.size(); ++i) {
    const auto k = static_cast<Tick>(i / 2);
    CHECK(c[i].agent == static_cast<int>(i % 2));
    CHECK(c[i].evaluation == k);
    CHECK(c[i].start == k * two);
    CHECK(c[i].time == k * two + 1'500'000);
  }
  CHECK_FALSE(t.next());
  // A hold that moves a start back in time is a bug of the schedule, not a silent overlap.
  TimelineOptions back;
  back.hold = [](Tick t) { return t - 1; };
  Timeline bad(constant_model(1.0, 1), back);
  CHECK_THROWS_AS(bad.next(), std::logic_error);
}

TEST_CASE("timeline: workers start at evaluation 0's completion, batches wait for the last") {
  // Two agents, three workers, uniform durations, ten evaluations each, against a by-hand list
  // schedule of the same durations (TimingModel::duration(n, k): evaluation k's, whatever its
  // worker).
  TimingSpec s;
  s.duration.model = DurationKind::uniform;
  s.duration.low = 0.5;
  s.duration.high = 2.0;
  const RngFactory rf(3, 0);
  const TimingModel durations = TimingModel::from_spec(s, 2, rf);
  const int W = 3, K = 10;
  for (const bool batches : {false, true}) {
    INFO("batches " << batches);
    TimelineOptions o;
    o.workers = W;
    o.batches = batches;
    o.evaluations = K;
    Timeline t(TimingModel::from_spec(s, 2, rf), o);
    const std::vector<Completion> got = take(t, 100);
    REQUIRE(got.size() == 2 * K);
    for (std::size_t i = 1; i < got.size(); ++i) {
      const Completion& a = got[i - 1];
      const Completion& b = got[i];
      CHECK(std::tie(a.time, a.agent, a.worker) < std::tie(b.time, b.agent, b.worker));
    }
    for (int n = 0; n < 2; ++n) {
      // By hand: evaluation 0 alone on worker 0; then each worker takes the next evaluation
      // when it is free (asynchronous) or when the whole batch is done (synchronous).
      std::vector<Completion> want;
      const Tick c0 = durations.duration(n, 0);
      want.push_back({c0, n, 0, 0, 0, 0});
      std::vector<Tick> free(W, c0);
      std::int64_t k = 1;
      if (batches) {
        Tick at = c0;
        while (k < K) {
          Tick last = at;
          for (int w = 0; w < W && k < K; ++w, ++k) {
            const Tick done = at + durations.duration(n, k);
            want.push_back({done, n, k, at, w, at});
            last = std::max(last, done);
          }
          at = last;
        }
      } else {
        std::vector<std::int64_t> running(W, -1);
        std::vector<Tick> since(W, c0);
        for (int w = 0; w < W; ++w) {
          running[w] = k;
          free[w] = c0 + durations.duration(n, k++);
        }
        while (true) {
          int w = -1;
          for (int v = 0; v < W; ++v)
            if (running[v] >= 0 && (w < 0 || free[v] < free[w])) w = v;
          if (w < 0) break;
          want.push_back({free[w], n, running[w], since[w], w, since[w]});
          since[w] = free[w];
          if (k < K) {
            running[w] = k;
            free[w] += durations.duration(n, k++);
          } else {
            running[w] = -1;
          }
        }
      }
      std::sort(want.begin(), want.end(), [](const Completion& a, const Completion& b) {
        return std::tie(a.time, a.worker) < std::tie(b.time, b.worker);
      });
      std::vector<Completion> mine;
      for (const Completion& c : got)
        if (c.agent == n) mine.push_back(c);
      CHECK(mine == want);
    }
  }
  TimelineOptions none;
  none.workers = 0;
  CHECK_THROWS_AS(Timeline(TimingModel::from_spec(s, 2, rf), none), std::invalid_argument);
}
