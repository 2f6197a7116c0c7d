// The time line of the asynchronous schedules against plans derived by hand (docs/TIME.md,
// "Schedules"): three agents, evaluations of 1 s, one of them three times slower, rounds = 2
// (evaluations 0, 1, 2; reports after 0 and 1).
#include <catch2/catch.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include "sim/config/config_loader.hpp"
#include "sim/run/schedule_plan.hpp"

using namespace fbosim;
using namespace fbosim::run;
using timeline::kTicksPerSecond;

namespace {

const char* kThree =
    "algorithm: fts_de\nrounds: 2\nruns: 1\nseed: 5\n"
    "objective: {family: gp_grid, grid_points: 50, lengthscale: 0.05}\n"
    "agents: {count: 3, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 10, lengthscale: 0.05}\nlocal_ts: {features: 10}\n"
    "timing: {duration: {model: constant, mean: 1}, tiers: {fractions: [0.3333], slowdowns: "
    "[3]}}\n";

config::ExperimentSpec spec_of(const std::vector<std::string>& sets) {
  return config::load_config_text(kThree, "three.yaml", "three", sets).spec;
}

SchedulePlan plan_of(const std::vector<std::string>& sets) {
  const config::ExperimentSpec s = spec_of(sets);
  return plan_schedule(s, core::RngFactory(s.seed, 0), true);
}

// The slow agent: the one whose first evaluation completes at 3 s.
int slow_agent(const SchedulePlan& p) {
  for (int n = 0; n < 3; ++n)
    if (p.evaluations[static_cast<std::size_t>(n)][0].complete == 3 * kTicksPerSecond) return n;
  FAIL("no agent completes its first evaluation at 3 s");
  return -1;
}

using Messages = std::vector<std::pair<int, int>>;

// The fast agents (in index order) with the given evaluation number each.
Messages fast(int slow, int k) {
  Messages m;
  for (int n = 0; n < 3; ++n)
    if (n != slow) m.emplace_back(n, k);
  return m;
}

void check_release(const PlannedRelease& r, double seconds, const Messages& messages) {
  CHECK(r.time == static_cast<timeline::Tick>(seconds * kTicksPerSecond));
  CHECK(r.messages == messages);
}

}  // namespace

TEST_CASE("buffered: a release at the K-th new message, a newer message replaces a pending one") {
  const SchedulePlan p = plan_of({"schedule.kind=buffered", "schedule.buffer=2"});
  const int s = slow_agent(p);
  // Fast agents complete at 1, 2, 3 s; the slow one at 3, 6, 9 s. Its message of evaluation 0
  // (3 s) is replaced by that of evaluation 1 (6 s), which never finds a second: K = 2.
  REQUIRE(p.releases.size() == 2);
  check_release(p.releases[0], 1, fast(s, 0));
  check_release(p.releases[1], 2, fast(s, 1));
  for (int n = 0; n < 3; ++n) {
    const auto& e = p.evaluations[static_cast<std::size_t>(n)];
    REQUIRE(e.size() == 3);
    CHECK(e[0].broadcast == 0);
    // Proposals at once, with the releases at or before that instant.
    CHECK(e[1].propose == e[0].complete);
    CHECK(e[1].broadcast == (n == s ? 2 : 1));
    CHECK(e[2].broadcast == 2);
  }
  // Completions in (time, agent) order: at 3 s the fast agents' last and the slow one's first.
  REQUIRE(p.order.size() == 9);
  for (std::size_t i = 1; i < p.order.size(); ++i) {
    const auto& a = p.order[i - 1];
    const auto& b = p.order[i];
    CHECK((a.time < b.time || (a.time == b.time && a.agent < b.agent)));
  }
}

TEST_CASE("periodic: a release every period holds the newest message of each agent") {
  const SchedulePlan p = plan_of({"schedule.kind=periodic", "schedule.period=2"});
  const int s = slow_agent(p);
  // At 2 s the fast agents' messages of evaluation 1 (arrived at 2 s: in time) replace those
  // of evaluation 0; the slow agent's arrive at 3 and 6 s.
  REQUIRE(p.releases.size() == 3);
  check_release(p.releases[0], 2, fast(s, 1));
  check_release(p.releases[1], 4, {{s, 0}});
  check_release(p.releases[2], 6, {{s, 1}});
  const auto& slow = p.evaluations[static_cast<std::size_t>(s)];
  CHECK(slow[1].broadcast == 1);  // at 3 s: the release of 2 s
  CHECK(slow[2].broadcast == 3);  // at 6 s: that of 6 s included
  for (int n = 0; n < 3; ++n)
    if (n != s) CHECK(p.evaluations[static_cast<std::size_t>(n)][2].broadcast == 1);
}

TEST_CASE("latest: every period releases each agent's newest message, released or not") {
  const SchedulePlan p = plan_of({"schedule.kind=latest", "schedule.period=2"});
  const int s = slow_agent(p);
  // The fast agents' messages of evaluation 1 (2 s) are in every release; the slow agent's of
  // evaluation 0 (3 s) in that of 4 s, replaced at 6 s by that of evaluation 1 (a completion at
  // a release's instant is before it). The instant of 8 s would hold no new message: not made.
  REQUIRE(p.releases.size() == 3);
  check_release(p.releases[0], 2, fast(s, 1));
  CHECK(p.releases[0].ages == std::vector<int>{0, 0});
  Messages all = fast(s, 1);
  all.emplace_back(s, 0);
  std::sort(all.begin(), all.end());
  check_release(p.releases[1], 4, all);
  // Ages in agent order: the fast agents' message is one release old, the slow one's new.
  std::vector<int> ages(3, 1);
  ages[static_cast<std::size_t>(s)] = 0;
  CHECK(p.releases[1].ages == ages);
  for (auto& m : all)
    if (m.first == s) m.second = 1;
  check_release(p.releases[2], 6, all);
  std::fill(ages.begin(), ages.end(), 2);
  ages[static_cast<std::size_t>(s)] = 0;
  CHECK(p.releases[2].ages == ages);
  const auto& slow = p.evaluations[static_cast<std::size_t>(s)];
  CHECK(slow[1].broadcast == 1);  // at 3 s: the release of 2 s
  CHECK(slow[2].broadcast == 3);  // at 6 s: that of 6 s included
  for (int n = 0; n < 3; ++n)
    if (n != s) CHECK(p.evaluations[static_cast<std::size_t>(n)][2].broadcast == 1);
  // The other kinds release each message once: every age is 0.
  for (const char* kind : {"periodic", "buffered", "deadline"}) {
    INFO(kind);
    for (const PlannedRelease& r : plan_of({std::string("schedule.kind=") + kind}).releases)
      CHECK(r.ages == std::vector<int>(r.messages.size(), 0));
  }
}

TEST_CASE("deadline: agents wait for the round's end, a late message joins the next release") {
  const SchedulePlan p = plan_of({"schedule.kind=deadline", "schedule.deadline=2"});
  const int s = slow_agent(p);
  // Fast: [0,1] wait, [2,3] wait, [4,5]. Slow: [0,3] wait, [4,7] wait, [8,11]. The slow
  // agent's first message (3 s) misses the round ending at 2 s and joins that ending at 4 s;
  // the round ending at 6 s has no message, an instant like any other.
  REQUIRE(p.releases.size() == 4);
  check_release(p.releases[0], 2, fast(s, 0));
  Messages second = fast(s, 1);
  second.emplace_back(s, 0);
  std::sort(second.begin(), second.end());
  check_release(p.releases[1], 4, second);
  check_release(p.releases[2], 6, {});
  check_release(p.releases[3], 8, {{s, 1}});
  const auto& slow = p.evaluations[static_cast<std::size_t>(s)];
  CHECK(slow[1].propose == 4 * kTicksPerSecond);
  CHECK(slow[1].complete == 7 * kTicksPerSecond);
  CHECK(slow[2].propose == 8 * kTicksPerSecond);
  CHECK(slow[2].complete == 11 * kTicksPerSecond);
  CHECK(slow[2].broadcast == 4);
  for (int n = 0; n < 3; ++n) {
    if (n == s) continue;
    const auto& e = p.evaluations[static_cast<std::size_t>(n)];
    CHECK(e[1].propose == 2 * kTicksPerSecond);
    CHECK(e[1].broadcast == 1);
    CHECK(e[2].complete == 5 * kTicksPerSecond);
    CHECK(e[2].broadcast == 2);
  }
}

TEST_CASE("the plan is a function of the timing streams alone: it replays") {
  for (const char* kind : {"buffered", "periodic", "deadline", "latest"}) {
    INFO(kind);
    const std::vector<std::string> sets = {std::string("schedule.kind=") + kind,
                                           "timing.duration.model=lognormal",
                                           "timing.duration.mean=1", "timing.duration.sigma=0.7"};
    const SchedulePlan a = plan_of(sets);
    const SchedulePlan b = plan_of(sets);
    CHECK(a.order == b.order);
    REQUIRE(a.releases.size() == b.releases.size());
    for (std::size_t j = 0; j < a.releases.size(); ++j) {
      CHECK(a.releases[j].time == b.releases[j].time);
      CHECK(a.releases[j].messages == b.releases[j].messages);
    }
    // Each message in at most one release (but under latest).
    if (std::string(kind) == "latest") continue;
    std::vector<std::pair<int, int>> all;
    for (const PlannedRelease& r : a.releases)
      all.insert(all.end(), r.messages.begin(), r.messages.end());
    std::sort(all.begin(), all.end());
    CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());
  }
}

TEST_CASE("agent_steps: completions before proposals at one instant, each query given those done") {
  // Evaluation 0 in [0, 4]; then three workers: 1 in [4, 9], 2 in [4, 6], 3 in [4, 7]; 4 proposed
  // at 6 (after 2's result), 5 at 7 (after 3's): neither sees 1's, still running.
  const std::vector<PlannedEvaluation> e = {{0, 4, 0}, {4, 9, 0}, {4, 6, 0},
                                            {4, 7, 0}, {6, 8, 0}, {7, 9, 0}};
  const std::vector<AgentStep> want = {{0, true, 0}, {4, false, 0}, {4, true, 1},  {4, true, 2},
                                       {4, true, 3}, {6, false, 2}, {6, true, 4},  {7, false, 3},
                                       {7, true, 5}, {8, false, 4}, {9, false, 1}, {9, false, 5}};
  CHECK(agent_steps(e) == want);
}

TEST_CASE("workers: evaluations 1 .. W start together at evaluation 0's completion") {
  const config::ExperimentSpec a =
      spec_of({"algorithm=ts", "schedule.kind=periodic", "schedule.workers=2"});
  const SchedulePlan p = plan_schedule(a, core::RngFactory(a.seed, 0), false);
  for (const auto& mine : p.evaluations) {
    REQUIRE(mine.size() == 3);  // rounds = 2
    // Evaluations 1 and 2 start together at evaluation 0's completion.
    CHECK(mine[1].propose == mine[0].complete);
    CHECK(mine[2].propose == mine[0].complete);
  }
  CHECK(p.releases.empty());  // ts: no server
}
