// The trust models (server.trust: distributed, local) under the asynchronous schedules
// (docs/TRUST.md "Under the asynchronous schedules"; run::release_charge): each agent's epsilon
// equals the events composed by hand on a three-agent case, a run's ledgers equal the replay of
// its time line (`fbosim privacy`), and its outputs are byte-identical on 1 and 2 threads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "algorithms/privacy/accountant_registry.hpp"
#include "core/thread_pool.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/run/experiment_runner.hpp"
#include "sim/run/release_charge.hpp"
#include "sim/run/run_engine.hpp"
#include "sim/run/schedule_ledgers.hpp"
#include "sim/run/schedule_plan.hpp"

using namespace fbosim;
using namespace fbosim::run;

namespace {

// Three agents of 1 s, one three times slower (async_engine_test's case): with rounds 2 each
// sends two messages (evaluations 0 and 1; the slow one at 3 s and 6 s). periodic every 2 s:
// releases at 2 (both fast agents' second message, their first discarded), 4 and 6 (the slow
// agent's alone); buffered K = 2: releases at 1 and 2 (the fast agents'), the slow agent's
// messages never released; latest every 2 s: at 2 (the fast two), 4 and 6 (all three).
const char* kThree =
    "algorithm: dp_fts_de\nrounds: 2\nruns: 1\nseed: 5\n"
    "objective: {family: gp_grid, grid_points: 50, lengthscale: 0.05}\n"
    "agents: {count: 3, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 10, lengthscale: 0.05}\nlocal_ts: {features: 10}\n"
    "server: {sampling_rate: 0.5, noise_multiplier: 1.5, clip_norm: 5, accountant: rdp}\n"
    "timing: {duration: {model: constant, mean: 1}, tiers: {fractions: [0.3333], slowdowns: "
    "[3]}}\n";

const char* kFour =
    "algorithm: dp_fts_de\nrounds: 4\nruns: 2\nseed: 11\n"
    "objective: {family: gp_grid, grid_points: 100, lengthscale: 0.05}\n"
    "agents: {count: 4, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 16, lengthscale: 0.05}\nlocal_ts: {features: 16}\n"
    "server: {sampling_rate: 0.5, noise_multiplier: 1, clip_norm: 5, accountant: rdp}\n"
    "timing: {duration: {model: exponential, mean: 1}, tiers: {fractions: [0.25], slowdowns: "
    "[10]}}\n";

using Events = std::vector<privacy::DpEvent>;

double composed(const Events& events, double delta) {
  auto a = privacy::make_accountant("rdp");
  for (const auto& e : events) a->compose(e);
  return a->epsilon(delta).epsilon;
}

Events times(const privacy::DpEvent& e, int k) { return Events(static_cast<std::size_t>(k), e); }

template <class T>
std::vector<T> operator+(std::vector<T> a, const std::vector<T>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Each agent's final epsilon in the replay, sorted, and the run's largest.
struct Epsilons {
  std::vector<double> agents;
  double run = 0;
  double delta = 0;
};

Epsilons epsilons(const std::vector<std::string>& sets) {
  const config::LoadedConfig c = config::load_config_text(kThree, "three.yaml", "three", sets);
  core::ThreadPool pool(1);
  const RunEngine engine(c.spec, pool);
  Epsilons out;
  out.run = engine.run(0).final_epsilon;
  AgentPrivacy replay = replay_schedule_ledgers(c.spec, 0);
  out.agents = replay.epsilons(0, "in the replay");
  std::sort(out.agents.begin(), out.agents.end());
  out.delta = c.spec.delta();
  return out;
}

// The sorted epsilons of the hand-composed events of the slow agent and the two fast ones.
void check_hand(const Epsilons& e, const Events& slow, const Events& fast) {
  std::vector<double> hand = {composed(slow, e.delta), composed(fast, e.delta),
                              composed(fast, e.delta)};
  std::sort(hand.begin(), hand.end());
  REQUIRE(e.agents.size() == 3);
  for (std::size_t n = 0; n < 3; ++n) CHECK(e.agents[n] == Approx(hand[n]).epsilon(1e-12));
  CHECK(e.run == Approx(hand[2]).epsilon(1e-12));
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("async trust: distributed with the agents' coins charges the pool, hand-composed") {
  const double q = 0.5, z = 1.5;
  const auto sampled = [&](double ze) {
    return privacy::DpEvent::poisson_sampled(q, privacy::DpEvent::gaussian(ze));
  };
  const std::vector<std::string> base = {"server.trust=distributed", "server.sampled_by=agents"};
  // No padding, no colluders: m shares of sigma^2 / m, z_eff = z; buffered at q = 1.
  check_hand(
      epsilons(base + std::vector<std::string>{"schedule.kind=periodic", "schedule.period=2"}),
      times(sampled(z), 2), times(sampled(z), 1));
  check_hand(
      epsilons(base + std::vector<std::string>{"schedule.kind=buffered", "schedule.buffer=2"}), {},
      times(privacy::DpEvent::gaussian(z), 2));
  check_hand(epsilons(base + std::vector<std::string>{"schedule.kind=latest", "schedule.period=2"}),
             times(sampled(z), 2), times(sampled(z), 3));
  // One colluder, padding 0.25: a sum of m = 2 carries z sqrt((2 - 1) / (1.5 - 1)) = z sqrt(2),
  // of m = 3 z sqrt(2 / 1.25); a sum of m = 1 cannot carry its noise ((1 - rho) m <= c): aborted,
  // charging nobody (the slow agent's lone releases under periodic).
  const std::vector<std::string> collude = {"server.colluders=1", "server.dropout_padding=0.25"};
  check_hand(epsilons(base + collude +
                      std::vector<std::string>{"schedule.kind=periodic", "schedule.period=2"}),
             {}, times(sampled(z * std::sqrt(2.0)), 1));
  check_hand(epsilons(base + collude +
                      std::vector<std::string>{"schedule.kind=latest", "schedule.period=2"}),
             times(sampled(z * std::sqrt(1.6)), 2),
             times(sampled(z * std::sqrt(2.0)), 1) + times(sampled(z * std::sqrt(1.6)), 2));
  check_hand(epsilons(base + collude +
                      std::vector<std::string>{"schedule.kind=buffered", "schedule.buffer=2"}),
             {}, times(privacy::DpEvent::gaussian(z * std::sqrt(2.0)), 2));
}

TEST_CASE(
    "async trust: distributed with server sampling charges q = 1 to the summed, hand-composed") {
  // q = 1: every pool agent is selected, so the summed agents are the pool's; each charged the
  // Gaussian of the noise summed (z) at q = 1 under every schedule.
  const std::vector<std::string> base = {"server.trust=distributed", "server.sampling_rate=1"};
  const privacy::DpEvent g = privacy::DpEvent::gaussian(1.5);
  check_hand(
      epsilons(base + std::vector<std::string>{"schedule.kind=periodic", "schedule.period=2"}),
      times(g, 2), times(g, 1));
  check_hand(
      epsilons(base + std::vector<std::string>{"schedule.kind=buffered", "schedule.buffer=2"}), {},
      times(g, 2));
  check_hand(epsilons(base + std::vector<std::string>{"schedule.kind=latest", "schedule.period=2"}),
             times(g, 2), times(g, 3));
}

TEST_CASE("async trust: local charges every message sent once, released or not, hand-composed") {
  // Two messages per agent under every schedule: the slow agent's under buffered, never
  // released, and the fast agents' under latest, released three times, alike.
  const privacy::DpEvent g = privacy::DpEvent::gaussian(1.2);
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"periodic", "schedule.period=2"},
      {"buffered", "schedule.buffer=2"},
      {"latest", "schedule.period=2"},
      {"deadline", "schedule.deadline=2"}};
  for (const auto& [kind, key] : kinds) {
    INFO(kind);
    check_hand(epsilons({"server.trust=local", "server.local_z=1.2", "schedule.kind=" + kind, key}),
               times(g, 2), times(g, 2));
    // The secret coin: Wang, Balle & Kasiviswanathan's replace-one bound at m/n = 1/2, per
    // message, under every schedule (the coin never decides whether or when a message is sent).
    const privacy::DpEvent coin =
        privacy::DpEvent::fixed_sampled(1, 2, privacy::DpEvent::gaussian(2.4));
    check_hand(epsilons({"server.trust=local", "server.local_z=1.2", "server.local_coin=true",
                         "schedule.kind=" + kind, key}),
               times(coin, 2), times(coin, 2));
  }
}

TEST_CASE(
    "async trust: a run's per-agent ledgers equal the replay of its time line, with network "
    "dropouts and latencies too") {
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"buffered", "schedule.buffer=2"},
      {"periodic", "schedule.period=1.5"},
      {"deadline", "schedule.deadline=2"},
      {"latest", "schedule.period=1.5"}};
  const std::vector<std::vector<std::string>> models = {
      {"server.trust=distributed"},  // server sampling at q = 0.5: the selection replayed
      {"server.trust=distributed", "server.sampled_by=agents"},
      {"server.trust=distributed", "server.colluders=1", "server.dropout_padding=0.3"},
      {"server.trust=local", "server.local_z=1.5"},
      {"server.trust=local", "server.local_coin=true"}};
  // The network on the clock: a lost message is in no release's pool, so every secure sum
  // still sums each pool agent's share (the engine checks its charges against the plan's).
  const std::vector<std::vector<std::string>> networks = {
      {},
      {"network.dropout=0.3", "network.latency.distribution=exponential",
       "network.latency.mean=0.5"}};
  for (const auto& [kind, key] : kinds)
    for (const auto& network : networks)
      for (const auto& model : models) {
        std::vector<std::string> sets = model;
        sets.push_back("schedule.kind=" + kind);
        sets.push_back(key);
        sets.insert(sets.end(), network.begin(), network.end());
        INFO(kind << " " << sets.front() << " " << sets[1] << " network " << network.size());
        const config::LoadedConfig c = config::load_config_text(kFour, "four.yaml", "four", sets);
        core::ThreadPool pool(2);
        const RunEngine engine(c.spec, pool);
        for (int r = 0; r < 2; ++r) {
          const RunResult res = engine.run(r);
          AgentPrivacy replay = replay_schedule_ledgers(c.spec, r);
          const std::vector<double> each = replay.epsilons(0, "in the replay");
          CHECK(res.final_epsilon == *std::max_element(each.begin(), each.end()));
          // Without the network every model charges someone; with 30 % dropouts a colluder-
          // padded sum of the few arrivals may abort in every release (nobody charged).
          if (network.empty()) CHECK(res.final_epsilon > 0);
          // agents.csv's last row per agent: run,round,time,agent,epsilon.
          std::istringstream in(res.agents_csv);
          std::string line;
          int checked = 0;
          while (std::getline(in, line)) {
            std::vector<std::string> cells(1);
            for (const char ch : line) {
              if (ch == ',') {
                cells.emplace_back();
              } else {
                cells.back().push_back(ch);
              }
            }
            if (std::stoi(cells.at(1)) != c.spec.rounds) continue;
            CHECK(std::stod(cells.at(4)) == each.at(std::stoul(cells.at(3))));
            ++checked;
          }
          CHECK(checked == c.spec.agents);
        }
      }
}

TEST_CASE("async trust: outputs are byte-identical on 1 and 2 threads") {
  for (const std::string model : {"distributed", "local"}) {
    for (const std::string kind : {"periodic", "latest", "buffered"}) {
      INFO(model << " " << kind);
      std::vector<std::string> dirs;
      for (const int threads : {1, 2}) {
        const config::LoadedConfig c = config::load_config_text(
            kFour, "four.yaml", "four",
            {"server.trust=" + model, "schedule.kind=" + kind,
             kind == "buffered" ? "schedule.buffer=2" : "schedule.period=1.5"});
        RunOptions o;
        o.threads = threads;
        const auto p = std::filesystem::temp_directory_path() /
                       ("fbosim_async_trust_" + model + kind + std::to_string(threads));
        std::filesystem::remove_all(p);
        o.out_dir = p.string();
        o.progress = false;
        run_experiment(c.spec, c.resolved, o);
        dirs.push_back(o.out_dir);
      }
      for (const char* f :
           {"/trace.csv", "/summary.csv", "/server.csv", "/agents.csv", "/agents_time.csv"}) {
        INFO(f);
        const std::string one = slurp(dirs[0] + f);
        CHECK(!one.empty());
        CHECK(one == slurp(dirs[1] + f));
      }
      const std::string provenance = slurp(dirs[0] + "/provenance.yaml");
      CHECK(provenance.find("trust_notion: ") != std::string::npos);
      CHECK(provenance.find("server.trust " + model) != std::string::npos);
    }
  }
}

TEST_CASE("async trust: fbosim privacy names what the trust model charges, nothing for central") {
  const auto notion = [](const std::vector<std::string>& sets) {
    const config::LoadedConfig c = config::load_config_text(
        kThree, "three.yaml", "three",
        sets + std::vector<std::string>{"schedule.kind=periodic", "schedule.period=2"});
    return trust_notion(charge_rule(c.spec, c.spec.system->privacy_plan(c.spec.agents)));
  };
  CHECK(notion({}).empty());
  CHECK_THAT(notion({"server.trust=local"}), Catch::Contains("each message sent charged once"));
  CHECK_THAT(notion({"server.trust=distributed"}), Catch::Contains("at q = 1"));
  CHECK_THAT(notion({"server.trust=distributed", "server.sampled_by=agents"}),
             Catch::Contains("secret coin"));
}

TEST_CASE("async trust: local's messages are charged at their sending on agents_time.csv's grid") {
  // Three agents (kThree): the fast two send at 1 s and 2 s, the slow one at 3 s and 6 s;
  // periodic releases at 2, 4 and 6 s charge nothing more. On the grid 0, 1, ..., 6 s the
  // agents' counts of messages sent are (0,0,0), (1,1,0), (2,2,0), then (2,2,1) to 5 s, (2,2,2)
  // at 6 s: each epsilon is that many Gaussians (z_local 1.2) composed, from the sending on, not
  // from the release (at 1 s nothing is released yet).
  const std::vector<std::string> sets = {"server.trust=local",     "server.local_z=1.2",
                                         "schedule.kind=periodic", "schedule.period=2",
                                         "output.time_grid=7",     "output.time_end=6"};
  const config::LoadedConfig c = config::load_config_text(kThree, "three.yaml", "three", sets);
  RunOptions o;
  o.threads = 1;
  const auto p = std::filesystem::temp_directory_path() / "fbosim_async_trust_local_grid";
  std::filesystem::remove_all(p);
  o.out_dir = p.string();
  o.progress = false;
  run_experiment(c.spec, c.resolved, o);
  const double delta = c.spec.delta();
  const auto eps = [&](int k) {
    return k == 0 ? 0.0 : composed(times(privacy::DpEvent::gaussian(1.2), k), delta);
  };
  // time: max, median (the 2nd of 3), 90th percentile (the 3rd of 3).
  const std::vector<std::array<int, 2>> expected = {{0, 0}, {1, 1}, {2, 2}, {2, 2},
                                                    {2, 2}, {2, 2}, {2, 2}};
  std::istringstream in(slurp(o.out_dir + "/agents_time.csv"));
  std::string line;
  std::getline(in, line);
  CHECK(line == "run,time,epsilon_max,epsilon_median,epsilon_p90");
  for (int t = 0; t <= 6; ++t) {
    INFO("t = " << t);
    REQUIRE(std::getline(in, line));
    std::vector<std::string> cells(1);
    for (const char ch : line) {
      if (ch == ',') {
        cells.emplace_back();
      } else {
        cells.back().push_back(ch);
      }
    }
    CHECK(std::stod(cells.at(1)) == t);
    CHECK(std::stod(cells.at(2)) == Approx(eps(expected[t][0])).epsilon(1e-12));
    CHECK(std::stod(cells.at(3)) == Approx(eps(expected[t][1])).epsilon(1e-12));
  }
}

TEST_CASE("async trust: distributed with server sampling charges the selected pool agents only") {
  // q = 0.5: release j's selection is a Poisson coin per agent, the first draws of stream
  // `server` (j); each agent is charged Gaussian(z) at q = 1 for every release whose pool holds
  // it and whose coin chose it (no padding, no colluders: z_eff = z), and nothing otherwise.
  for (const std::string kind : {"periodic", "latest", "buffered"}) {
    INFO(kind);
    const config::LoadedConfig c =
        config::load_config_text(kThree, "three.yaml", "three",
                                 {"server.trust=distributed", "schedule.kind=" + kind,
                                  kind == "buffered" ? "schedule.buffer=2" : "schedule.period=2"});
    const core::RngFactory rf(c.spec.seed, 0);
    const SchedulePlan plan = plan_schedule(c.spec, rf, true);
    std::vector<int> count(3, 0);
    for (std::size_t j = 0; j < plan.releases.size(); ++j) {
      core::RngStream srv = rf.stream("server", j);
      std::vector<bool> coin;
      for (int n = 0; n < 3; ++n) coin.push_back(srv.bernoulli(0.5));
      for (const auto& m : plan.releases[j].messages)
        if (coin[static_cast<std::size_t>(m.first)]) ++count[static_cast<std::size_t>(m.first)];
    }
    AgentPrivacy replay = replay_schedule_ledgers(c.spec, 0);
    const std::vector<double> each = replay.epsilons(0, "in the replay");
    for (int n = 0; n < 3; ++n) {
      INFO("agent " << n << " selected " << count[n] << " times");
      CHECK(each[static_cast<std::size_t>(n)] ==
            Approx(composed(times(privacy::DpEvent::gaussian(1.5), count[n]), c.spec.delta()))
                .epsilon(1e-12)
                .margin(1e-12));
    }
    core::ThreadPool pool(1);
    CHECK(RunEngine(c.spec, pool).run(0).final_epsilon ==
          *std::max_element(each.begin(), each.end()));
  }
}
