// The network on the clock (docs/TIME.md, "The network on the clock"): latencies and dropouts
// join the asynchronous schedules' time line. Which release each message joins, derived by hand
// on schedule_plan_test's three agents (evaluations of 1 s, one agent three times slower,
// rounds = 2: reports after evaluations 0 and 1); the degenerate case (latency 0, dropout 0)
// unchanged; runs byte-identical on 1 and 2 threads; a run's ledgers equal its replay's.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include "algorithms/privacy/accountant_registry.hpp"
#include "core/thread_pool.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/run/experiment_runner.hpp"
#include "sim/run/message_arrivals.hpp"
#include "sim/run/run_engine.hpp"
#include "sim/run/schedule_ledgers.hpp"
#include "sim/run/schedule_plan.hpp"

using namespace fbosim;
using namespace fbosim::run;
using Catch::Matchers::Contains;
using timeline::kTicksPerSecond;

namespace {

// Under rounds (no timing.* keys).
const std::string kThreeRounds =
    "algorithm: fts_de\nrounds: 2\nruns: 1\nseed: 5\n"
    "objective: {family: gp_grid, grid_points: 50, lengthscale: 0.05}\n"
    "agents: {count: 3, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 10, lengthscale: 0.05}\nlocal_ts: {features: 10}\n";
const std::string kThree =
    kThreeRounds +
    "timing: {duration: {model: constant, mean: 1}, tiers: {fractions: [0.3333], slowdowns: "
    "[3]}}\n";

const char* kFour =
    "rounds: 4\nruns: 2\nseed: 11\n"
    "objective: {family: gp_grid, grid_points: 100, lengthscale: 0.05}\n"
    "agents: {count: 4, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 16, lengthscale: 0.05}\nlocal_ts: {features: 16}\n"
    "server: {sampling_rate: 0.5, noise_multiplier: 1, clip_norm: 5}\n"
    "timing: {duration: {model: exponential}, tiers: {fractions: [0.25], slowdowns: [10]}}\n";

config::ExperimentSpec spec_of(const std::string& text, const std::vector<std::string>& sets) {
  return config::load_config_text(text, "c.yaml", "c", sets).spec;
}

SchedulePlan plan_of(const std::vector<std::string>& sets) {
  const config::ExperimentSpec s = spec_of(kThree, sets);
  return plan_schedule(s, core::RngFactory(s.seed, 0), true);
}

int slow_agent(const SchedulePlan& p) {
  for (int n = 0; n < 3; ++n)
    if (p.evaluations[static_cast<std::size_t>(n)][0].complete == 3 * kTicksPerSecond) return n;
  FAIL("no agent completes its first evaluation at 3 s");
  return -1;
}

using Messages = std::vector<std::pair<int, int>>;

Messages fast(int slow, int k) {
  Messages m;
  for (int n = 0; n < 3; ++n)
    if (n != slow) m.emplace_back(n, k);
  return m;
}

Messages sorted(Messages m) {
  std::sort(m.begin(), m.end());
  return m;
}

void check_release(const PlannedRelease& r, double seconds, const Messages& messages) {
  CHECK(r.time == static_cast<timeline::Tick>(seconds * kTicksPerSecond));
  CHECK(r.messages == messages);
}

// The proposals of the three-agent case do not depend on the network: the agents never wait.
void check_proposals_unchanged(const SchedulePlan& with, const SchedulePlan& without) {
  REQUIRE(with.evaluations.size() == without.evaluations.size());
  for (std::size_t n = 0; n < with.evaluations.size(); ++n) {
    REQUIRE(with.evaluations[n].size() == without.evaluations[n].size());
    for (std::size_t k = 0; k < with.evaluations[n].size(); ++k) {
      CHECK(with.evaluations[n][k].propose == without.evaluations[n][k].propose);
      CHECK(with.evaluations[n][k].complete == without.evaluations[n][k].complete);
    }
  }
  CHECK(with.order == without.order);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string run_to(const std::string& name, const std::vector<std::string>& sets, int threads) {
  const config::LoadedConfig c = config::load_config_text(kFour, "four.yaml", "four", sets);
  RunOptions o;
  o.threads = threads;
  const auto dir = std::filesystem::temp_directory_path() / ("fbosim_netclock_" + name);
  std::filesystem::remove_all(dir);
  o.out_dir = dir.string();
  o.progress = false;
  run_experiment(c.spec, c.resolved, o);
  return o.out_dir;
}

const std::vector<std::pair<std::string, std::string>> kKinds = {
    {"buffered", "schedule.buffer=2"},
    {"periodic", "schedule.period=1.5"},
    {"deadline", "schedule.deadline=2"},
    {"latest", "schedule.period=1.5"}};

const std::vector<std::string> kNetwork = {"network.latency.distribution=exponential",
                                           "network.latency.mean=0.8", "network.dropout=0.3"};

}  // namespace

TEST_CASE("network on the clock: a constant latency under periodic shifts the arrivals by it") {
  const std::vector<std::string> periodic = {"schedule.kind=periodic", "schedule.period=2"};
  const SchedulePlan none = plan_of(periodic);
  for (const char* latency : {"0.5", "1"}) {
    INFO(latency);
    std::vector<std::string> sets = periodic;
    sets.push_back(std::string("network.latency.mean=") + latency);
    const SchedulePlan p = plan_of(sets);
    const int s = slow_agent(p);
    // Fast agents complete at 1 and 2 s, their messages arrive at 1 + L and 2 + L; the slow
    // one's complete at 3 and 6 s and arrive at 3 + L and 6 + L. With L = 0.5 or 1 (an arrival
    // at a release's instant is in it): the fast agents' messages of evaluation 0 in the release
    // of 2 s (without latency those of evaluation 1 replaced them), those of evaluation 1 with
    // the slow agent's first at 4 s, nothing new at 6 s, the slow agent's second at 8 s.
    REQUIRE(p.releases.size() == 4);
    check_release(p.releases[0], 2, fast(s, 0));
    check_release(p.releases[1], 4, sorted({{s, 0}, fast(s, 1)[0], fast(s, 1)[1]}));
    check_release(p.releases[2], 6, {});
    check_release(p.releases[3], 8, {{s, 1}});
    check_proposals_unchanged(p, none);
    // The broadcasts follow the releases: the slow agent proposes evaluation 2 at 6 s with the
    // releases of 2, 4 and 6 s.
    CHECK(p.evaluations[static_cast<std::size_t>(s)][2].broadcast == 3);
  }
  // L = 1.5: the fast agents' first messages (2.5 s) are replaced by their second ones (3.5 s)
  // before the release of 4 s; the slow agent's (4.5 and 7.5 s) join those of 6 and 8 s.
  std::vector<std::string> sets = periodic;
  sets.push_back("network.latency.mean=1.5");
  const SchedulePlan p = plan_of(sets);
  const int s = slow_agent(p);
  REQUIRE(p.releases.size() == 4);
  check_release(p.releases[0], 2, {});
  check_release(p.releases[1], 4, fast(s, 1));
  check_release(p.releases[2], 6, {{s, 0}});
  check_release(p.releases[3], 8, {{s, 1}});
  check_proposals_unchanged(p, none);
  // Without latency (schedule_plan_test): 2 s the fast agents' second messages, 4 and 6 s the
  // slow agent's: the degenerate case.
  check_release(none.releases.at(0), 2, fast(s, 1));
  CHECK(none.releases.size() == 3);
}

TEST_CASE("network on the clock: under buffered the arrivals count towards K") {
  const std::vector<std::string> buffered = {"schedule.kind=buffered", "schedule.buffer=2"};
  std::vector<std::string> sets = buffered;
  sets.push_back("network.latency.mean=0.5");
  const SchedulePlan p = plan_of(sets);
  const int s = slow_agent(p);
  // The fast agents' messages arrive together at 1.5 and 2.5 s: each pair is K = 2 arrivals,
  // released at that instant. The slow agent's (3.5 and 6.5 s; the second replaces the first)
  // never find a second arrival.
  REQUIRE(p.releases.size() == 2);
  check_release(p.releases[0], 1.5, fast(s, 0));
  check_release(p.releases[1], 2.5, fast(s, 1));
  check_proposals_unchanged(p, plan_of(buffered));
  for (int n = 0; n < 3; ++n) {
    const auto& e = p.evaluations[static_cast<std::size_t>(n)];
    CHECK(e[1].broadcast == (n == s ? 2 : 0));  // at 1 s no release yet; at 3 s both
    CHECK(e[2].broadcast == (n == s ? 2 : 1));  // at 2 s the release of 1.5 s
  }
}

TEST_CASE("network on the clock: the messages the dropout stream loses are in no release") {
  // rounds = 3 (reports after evaluations 0, 1, 2), p = 0.3, seed 5, run 0.
  const std::vector<std::string> base = {"rounds=3", "network.dropout=0.3"};
  const config::ExperimentSpec spec = spec_of(kThree, {"schedule.kind=periodic", "rounds=3"});
  // The case's premise, given the stream network.dropout (n, k): one uniform each, lost below p.
  const core::RngFactory streams(spec.seed, 0);
  Messages lost;
  for (int n = 0; n < 3; ++n)
    for (int k = 0; k < 3; ++k) {
      core::RngStream rng = streams.stream("network.dropout", static_cast<std::uint64_t>(n),
                                           static_cast<std::uint64_t>(k));
      if (rng.uniform() < 0.3) lost.emplace_back(n, k);
    }
  REQUIRE(lost == Messages{{0, 1}, {2, 0}, {2, 1}});
  const auto plan = [&](std::vector<std::string> sets) {
    sets.insert(sets.end(), base.begin(), base.end());
    return plan_of(sets);
  };
  // Agents 0 and 1 complete at 1, 2, 3 s (messages of evaluations 0, 1, 2), the slow agent 2 at
  // 3, 6, 9 s. Periodic every 2 s: at 2 s agent 0's message of evaluation 0 (that of 1 lost)
  // and agent 1's of evaluation 1; at 4 s both agents' of evaluation 2; the slow agent's first
  // two are lost, its third is in the release of 10 s. Without dropouts the slow agent's are in
  // those of 4 and 6 s.
  const SchedulePlan periodic = plan({"schedule.kind=periodic", "schedule.period=2"});
  REQUIRE(slow_agent(periodic) == 2);
  REQUIRE(periodic.releases.size() == 5);
  check_release(periodic.releases[0], 2, {{0, 0}, {1, 1}});
  check_release(periodic.releases[1], 4, {{0, 2}, {1, 2}});
  check_release(periodic.releases[2], 6, {});
  check_release(periodic.releases[3], 8, {});
  check_release(periodic.releases[4], 10, {{2, 2}});
  // latest: the same, but each agent's newest message that arrived stays in every release.
  const SchedulePlan latest = plan({"schedule.kind=latest", "schedule.period=2"});
  REQUIRE(latest.releases.size() == 5);
  check_release(latest.releases[0], 2, {{0, 0}, {1, 1}});
  for (int j = 1; j < 4; ++j) {
    check_release(latest.releases[static_cast<std::size_t>(j)], 2.0 * (j + 1), {{0, 2}, {1, 2}});
    CHECK(latest.releases[static_cast<std::size_t>(j)].ages == std::vector<int>{j - 1, j - 1});
  }
  check_release(latest.releases[4], 10, {{0, 2}, {1, 2}, {2, 2}});
  CHECK(latest.releases[4].ages == std::vector<int>{3, 3, 0});
  // buffered K = 2: a lost message does not count. At 1 s agents 0 and 1 (K reached); at 2 s
  // agent 1's; at 3 s agent 0's makes two (with agent 1's of evaluation 1), then agent 1's of
  // evaluation 2 waits for the slow agent's third at 9 s.
  const SchedulePlan buffered = plan({"schedule.kind=buffered", "schedule.buffer=2"});
  REQUIRE(buffered.releases.size() == 3);
  check_release(buffered.releases[0], 1, {{0, 0}, {1, 0}});
  check_release(buffered.releases[1], 3, {{0, 2}, {1, 1}});
  check_release(buffered.releases[2], 9, {{1, 2}, {2, 2}});
  // Nobody waits for the network: the same proposals as without dropouts.
  check_proposals_unchanged(periodic,
                            plan_of({"schedule.kind=periodic", "schedule.period=2", "rounds=3"}));

  // The charges, composed by hand: each agent one subsampled Gaussian per release holding a
  // message of its (periodic: 2, 2, 1; latest: 5, 5, 1), buffered one Gaussian (q = 1) each
  // (2, 3, 1); a lost message costs nothing.
  const std::vector<std::string> dp = {"algorithm=dp_fts_de", "server.sampling_rate=0.5",
                                       "server.noise_multiplier=1.5", "server.clip_norm=5"};
  const auto composed = [](const privacy::DpEvent& e, int times, double delta) {
    auto a = privacy::make_accountant("moments");
    for (int k = 0; k < times; ++k) a->compose(e);
    return a->epsilon(delta).epsilon;
  };
  const auto sampled = privacy::DpEvent::poisson_sampled(0.5, privacy::DpEvent::gaussian(1.5));
  const std::vector<std::tuple<std::string, std::string, privacy::DpEvent, std::vector<int>>>
      cases = {{"periodic", "schedule.period=2", sampled, {2, 2, 1}},
               {"latest", "schedule.period=2", sampled, {5, 5, 1}},
               {"buffered", "schedule.buffer=2", privacy::DpEvent::gaussian(1.5), {2, 3, 1}}};
  for (const auto& [kind, key, event, counts] : cases) {
    INFO(kind);
    std::vector<std::string> sets = dp;
    sets.insert(sets.end(), base.begin(), base.end());
    sets.insert(sets.end(), {"schedule.kind=" + kind, key});
    const config::LoadedConfig c = config::load_config_text(kThree, "c.yaml", "c", sets);
    AgentPrivacy replay = replay_schedule_ledgers(c.spec, 0);
    const std::vector<double> eps = replay.epsilons(0, "in the replay");
    for (std::size_t n = 0; n < 3; ++n)
      CHECK(eps[n] == Approx(composed(event, counts[n], c.spec.delta())).epsilon(1e-12));
    core::ThreadPool pool(1);
    CHECK(RunEngine(c.spec, pool).run(0).final_epsilon ==
          *std::max_element(eps.begin(), eps.end()));
  }
}

TEST_CASE("network on the clock: under deadline the agents wait for the round, not the network") {
  const std::vector<std::string> deadline = {"schedule.kind=deadline", "schedule.deadline=2"};
  std::vector<std::string> sets = deadline;
  sets.push_back("network.latency.mean=1.5");
  const SchedulePlan p = plan_of(sets);
  const int s = slow_agent(p);
  // Fast: [0,1] wait, [2,3] wait, [4,5]; messages arrive at 2.5 and 4.5 s. Slow: [0,3] wait,
  // [4,7] wait, [8,11]; messages arrive at 4.5 and 8.5 s. Releases at the first round's end at
  // or after each arrival: 4 s (fast 0), 6 s (fast 1, slow 0), 10 s (slow 1); 2 and 8 s empty.
  REQUIRE(p.releases.size() == 5);
  check_release(p.releases[0], 2, {});
  check_release(p.releases[1], 4, fast(s, 0));
  check_release(p.releases[2], 6, sorted({{s, 0}, fast(s, 1)[0], fast(s, 1)[1]}));
  check_release(p.releases[3], 8, {});
  check_release(p.releases[4], 10, {{s, 1}});
  check_proposals_unchanged(p, plan_of(deadline));
}

TEST_CASE("network on the clock: a message overtaken in transit is never released after a newer") {
  // Latencies of mean 3 s against evaluations of about 1 s: messages overtake each other.
  for (const char* kind : {"periodic", "buffered", "deadline", "latest"}) {
    INFO(kind);
    std::vector<std::string> sets = {std::string("schedule.kind=") + kind,
                                     "network.latency.distribution=exponential",
                                     "network.latency.mean=3", "rounds=12", "agents.count=6"};
    if (std::string(kind) == "buffered") sets.push_back("schedule.buffer=2");
    const config::ExperimentSpec spec = spec_of(kThree, sets);
    const core::RngFactory streams(spec.seed, 0);
    const SchedulePlan p = plan_schedule(spec, streams, true);
    const timeline::MessageDelivery delivery(delivery_spec(spec.network), streams);
    int overtaken = 0;
    for (int n = 0; n < spec.agents; ++n) {
      const auto& mine = p.evaluations[static_cast<std::size_t>(n)];
      for (std::size_t k = 0; k + 2 < mine.size(); ++k)
        overtaken += *delivery.arrival(n, static_cast<int>(k), mine[k].complete) >
                             *delivery.arrival(n, static_cast<int>(k + 1), mine[k + 1].complete)
                         ? 1
                         : 0;
    }
    CHECK(overtaken > 0);  // the case is not degenerate
    // Per agent, the evaluations released never go back (latest may repeat one), and every
    // message is released at or after its arrival.
    std::vector<int> last(static_cast<std::size_t>(spec.agents), -1);
    for (const PlannedRelease& r : p.releases)
      for (const auto& [n, k] : r.messages) {
        const auto at = delivery.arrival(
            n, k, p.evaluations[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)].complete);
        CHECK(r.time >= *at);
        int& before = last[static_cast<std::size_t>(n)];
        if (std::string(kind) == "latest")
          CHECK(k >= before);
        else
          CHECK(k > before);
        before = k;
      }
  }
}

TEST_CASE("network on the clock: latency 0 and dropout 0 given explicitly change no output") {
  for (const auto& [kind, key] : kKinds) {
    INFO(kind);
    const std::vector<std::string> sets = {"schedule.kind=" + kind, key};
    std::vector<std::string> zero = sets;
    zero.insert(zero.end(), {"network.latency.distribution=constant", "network.latency.mean=0",
                             "network.dropout=0"});
    const std::string a = run_to(kind + "_absent", sets, 1);
    const std::string b = run_to(kind + "_zero", zero, 1);
    for (const char* f : {"/trace.csv", "/server.csv", "/summary.csv", "/agents.csv",
                          "/summary_time.csv", "/agents_time.csv"}) {
      INFO(f);
      CHECK(slurp(a + f) == slurp(b + f));
    }
  }
}

TEST_CASE(
    "network on the clock: runs with latency and dropout are byte-identical on 1 and 2 "
    "threads") {
  for (const auto& [kind, key] : kKinds) {
    INFO(kind);
    std::vector<std::string> sets = kNetwork;
    sets.insert(sets.end(), {"schedule.kind=" + kind, key});
    const std::string a = run_to(kind + "_net_t1", sets, 1);
    const std::string b = run_to(kind + "_net_t2", sets, 2);
    for (const char* f : {"/trace.csv", "/server.csv", "/summary.csv", "/agents.csv",
                          "/summary_time.csv", "/agents_time.csv", "/config.resolved.yaml"}) {
      INFO(f);
      CHECK(slurp(a + f) == slurp(b + f));
    }
    // The network changed the releases (the case is not degenerate).
    const std::string none = run_to(kind + "_nonet", {"schedule.kind=" + kind, key}, 1);
    CHECK(slurp(a + "/server.csv") != slurp(none + "/server.csv"));
  }
}

TEST_CASE("network on the clock: a run's per-agent epsilons equal its replay's") {
  for (const auto& [kind, key] : kKinds) {
    INFO(kind);
    std::vector<std::string> sets = kNetwork;
    sets.insert(sets.end(), {"schedule.kind=" + kind, key, "server.accountants=rdp"});
    const config::LoadedConfig c = config::load_config_text(kFour, "four.yaml", "four", sets);
    core::ThreadPool pool(2);
    const RunEngine engine(c.spec, pool);
    for (int r = 0; r < 2; ++r) {
      const RunResult res = engine.run(r);
      AgentPrivacy replay = replay_schedule_ledgers(c.spec, r);
      const std::vector<double> moments = replay.epsilons(0, "in the replay");
      const std::vector<double> rdp = replay.epsilons(1, "in the replay");
      CHECK(res.final_epsilon == *std::max_element(moments.begin(), moments.end()));
      CHECK(res.extra_epsilon.at(0).back() == *std::max_element(rdp.begin(), rdp.end()));
      CHECK(res.final_epsilon > 0);
      // agents.csv's last row per agent: the replay's epsilons, agent by agent.
      std::istringstream in(res.agents_csv);
      std::string line;
      std::vector<std::string> last(static_cast<std::size_t>(c.spec.agents));
      while (std::getline(in, line)) {
        std::vector<std::string> cells(1);
        for (const char ch : line) {
          if (ch == ',')
            cells.emplace_back();
          else
            cells.back() += ch;
        }
        last.at(std::stoul(cells.at(3))) = cells.at(4);
      }
      for (std::size_t n = 0; n < last.size(); ++n) CHECK(std::stod(last[n]) == moments[n]);
    }
  }
}

TEST_CASE("network on the clock: network.deadline is refused, latencies are bounded seconds") {
  for (const auto& [kind, key] : kKinds) {
    INFO(kind);
    CHECK_THROWS_WITH(
        spec_of(kThree, {"schedule.kind=" + kind, key, "network.deadline=500"}),
        Contains("c.yaml: network.deadline: applies only under schedule.kind: rounds, not " +
                 kind) &&
            Contains("choose schedule.kind: deadline with schedule.deadline") &&
            Contains("got 500"));
    CHECK_THROWS_WITH(spec_of(kThree, {"schedule.kind=" + kind, key, "network.latency.mean=2e9"}),
                      Contains("c.yaml: network.latency.mean: must be at most 1e+09 seconds under "
                               "schedule.kind " +
                               kind) &&
                          Contains("got 2e9"));
    CHECK_THROWS_WITH(
        spec_of(kThree, {"schedule.kind=" + kind, key, "network.latency.distribution=uniform",
                         "network.latency.max=3e9"}),
        Contains("c.yaml: network.latency.max: must be at most 1e+09 seconds"));
    CHECK_NOTHROW(spec_of(
        kThree, {"schedule.kind=" + kind, key, "network.latency.distribution=uniform",
                 "network.latency.min=0.1", "network.latency.max=2", "network.dropout=0.2"}));
  }
  // Under rounds the keys are ticks, as before: a deadline and a large latency are accepted.
  CHECK_NOTHROW(spec_of(kThreeRounds, {"network.deadline=500", "network.latency.mean=2e9"}));
}
