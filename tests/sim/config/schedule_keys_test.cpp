// schedule.* and timing.* (issue 41): what reaches the spec, and the errors that name the key,
// the value and why.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "sim/config/config_loader.hpp"

using namespace fbosim;
using namespace fbosim::config;

namespace {

const std::string kBase =
    "rounds: 3\nagents: {count: 4}\nobjective: {family: gp_grid, grid_points: 50}\n"
    "exploration: {subregions: 2}\n";

LoadedConfig load(const std::string& text, const std::vector<std::string>& sets = {}) {
  return load_config_text(text, "s.yaml", "s", sets);
}

}  // namespace

TEST_CASE("schedule and timing keys reach the spec, the papers' configs record neither") {
  const LoadedConfig plain = load(kBase);
  CHECK(plain.spec.schedule.kind == protocol::ScheduleKind::rounds);
  CHECK_FALSE(plain.resolved["schedule"]);
  CHECK_FALSE(plain.resolved["timing"]);
  const LoadedConfig b = load(kBase, {"schedule.kind=buffered", "timing.duration.model=pareto",
                                      "timing.duration.shape=2.5"});
  CHECK(b.spec.schedule.kind == protocol::ScheduleKind::buffered);
  CHECK(b.spec.schedule.buffer == 4);  // 0: agents.count
  CHECK(b.spec.timing.duration.model == timeline::DurationKind::pareto);
  CHECK(b.spec.timing.duration.shape == 2.5);
  CHECK(b.resolved["schedule"]["kind"].as<std::string>() == "buffered");
  CHECK(b.resolved["timing"]["duration"]["model"].as<std::string>() == "pareto");
  const LoadedConfig p = load(kBase, {"schedule.kind=periodic", "schedule.period=2.5"});
  CHECK(p.spec.schedule.period == 2.5);
  const LoadedConfig l = load(kBase, {"schedule.kind=latest", "schedule.period=0.5"});
  CHECK(l.spec.schedule.kind == protocol::ScheduleKind::latest);
  CHECK(l.spec.schedule.period == 0.5);
  CHECK(l.resolved["schedule"]["period"].as<double>() == 0.5);
}

TEST_CASE("schedule errors name the key, the value and why") {
  CHECK_THROWS_WITH(load(kBase, {"schedule.kind=sometimes"}),
                    Catch::Contains("s.yaml") && Catch::Contains("schedule.kind") &&
                        Catch::Contains("sometimes"));
  CHECK_THROWS_WITH(load(kBase, {"schedule.kind=buffered", "schedule.buffer=5"}),
                    Catch::Contains("schedule.buffer") && Catch::Contains("agents.count (4)") &&
                        Catch::Contains("5"));
  CHECK_THROWS_WITH(load(kBase, {"schedule.kind=periodic", "schedule.period=0"}),
                    Catch::Contains("schedule.period") && Catch::Contains("0"));
  // A model's key under rounds: the papers' rounds have no clock.
  CHECK_THROWS_WITH(load(kBase, {"timing.duration.model=lognormal"}),
                    Catch::Contains("timing.duration.model") && Catch::Contains("rounds"));
  // The network's latencies and dropouts are on the time line (tests/sim/run/
  // network_clock_test.cpp); its deadline is the rounds' rule, refused pointing to the
  // schedule's own. The stop rules are on the time line too (schedule_stops_test).
  CHECK_NOTHROW(load(kBase, {"schedule.kind=buffered", "network.dropout=0.1"}));
  CHECK_THROWS_WITH(load(kBase, {"schedule.kind=periodic", "network.deadline=5"}),
                    Catch::Contains("s.yaml") && Catch::Contains("network.deadline") &&
                        Catch::Contains("schedule.kind: deadline") && Catch::Contains("got 5"));
  CHECK_NOTHROW(load(kBase, {"schedule.kind=deadline", "server.budget=3"}));
  CHECK_NOTHROW(load(kBase, {"schedule.kind=deadline", "server.stop_p=0.1"}));
  // ts has no server to stop, under any schedule.
  CHECK_THROWS_WITH(load(kBase, {"algorithm=ts", "schedule.kind=deadline", "server.stop_p=0.1"}),
                    Catch::Contains("server.stop_p") && Catch::Contains("no server"));
  // The key of another kind is not read.
  CHECK_THROWS_WITH(load(kBase, {"schedule.kind=periodic", "schedule.buffer=2"}),
                    Catch::Contains("schedule.buffer"));
}

TEST_CASE("an algorithm that does not declare a schedule is refused, saying why") {
  const std::string po =
      "algorithm: po_gp_ucb\nagents: {count: 1}\n"
      "objective: {family: gp_grid2d, grid_side: 10}\n";
  CHECK_THROWS_WITH(load(po, {"schedule.kind=buffered"}),
                    Catch::Contains("schedule.kind") && Catch::Contains("po_gp_ucb") &&
                        Catch::Contains("'buffered'") && Catch::Contains("no server"));
  const std::string bo =
      "algorithm: dp_bo\nagents: {count: 2}\n"
      "objective: {family: gp_grid2d, grid_side: 8}\n";
  CHECK_THROWS_WITH(load(bo, {"schedule.kind=periodic"}),
                    Catch::Contains("dp_bo") && Catch::Contains("'periodic'"));
  CHECK_THROWS_WITH(load(bo, {"schedule.kind=latest"}),
                    Catch::Contains("dp_bo") && Catch::Contains("'latest'"));
  CHECK_THROWS_WITH(load("algorithm: fts_target\nagents: {count: 3}\n"
                         "objective: {family: gp_grid, grid_points: 50}\n",
                         {"schedule.kind=deadline"}),
                    Catch::Contains("fts_target") && Catch::Contains("'deadline'"));
  for (const char* ok : {"ts", "fts", "fts_de", "dp_fts", "dp_fts_de"}) {
    INFO(ok);
    const std::string p = std::string(ok) == "fts" || std::string(ok) == "dp_fts"
                              ? "exploration.subregions=1"
                              : "exploration.subregions=2";
    CHECK_NOTHROW(load(kBase, {std::string("algorithm=") + ok, p, "schedule.kind=buffered"}));
    CHECK_NOTHROW(load(kBase, {std::string("algorithm=") + ok, p, "schedule.kind=latest"}));
  }
}

TEST_CASE("age weights are read under latest only, with a server, and say why otherwise") {
  const LoadedConfig a = load(
      kBase, {"schedule.kind=latest", "schedule.age_weight=fedasync", "schedule.age_exponent=2"});
  CHECK(a.spec.schedule.age_weight == config::AgeWeight::fedasync);
  CHECK(a.spec.schedule.age_exponent == 2.0);
  CHECK(a.resolved["schedule"]["age_weight"].as<std::string>() == "fedasync");
  CHECK(load(kBase, {"schedule.kind=latest"}).spec.schedule.age_weight == config::AgeWeight::one);
  // Under the other kinds a message is in the first release after it is made (age 0).
  CHECK_THROWS_WITH(load(kBase, {"schedule.kind=periodic", "schedule.age_weight=fedbuff"}),
                    Catch::Contains("s.yaml") && Catch::Contains("schedule.age_weight") &&
                        Catch::Contains("only under schedule.kind: latest, not periodic") &&
                        Catch::Contains("age 0") && Catch::Contains("fedbuff"));
  CHECK_THROWS_WITH(load(kBase, {"schedule.kind=latest", "schedule.age_weight=fedbuff",
                                 "schedule.age_exponent=2"}),
                    Catch::Contains("schedule.age_exponent") &&
                        Catch::Contains("only with schedule.age_weight: fedasync"));
  CHECK_THROWS_WITH(load(kBase, {"schedule.kind=latest", "schedule.age_weight=fedasync",
                                 "schedule.age_exponent=0"}),
                    Catch::Contains("schedule.age_exponent") && Catch::Contains("0"));
  CHECK_THROWS_WITH(load(kBase, {"schedule.kind=latest", "schedule.age_weight=sometimes"}),
                    Catch::Contains("schedule.age_weight") && Catch::Contains("sometimes"));
  // ts has no server: nothing to weight.
  CHECK_THROWS_WITH(
      load(kBase, {"algorithm=ts", "schedule.kind=latest", "schedule.age_weight=fedbuff"}),
      Catch::Contains("s.yaml") && Catch::Contains("schedule.age_weight") &&
          Catch::Contains("fedbuff") && Catch::Contains("algorithm ts has no server"));
  CHECK_NOTHROW(load(kBase, {"algorithm=ts", "schedule.kind=latest"}));
}

TEST_CASE("several workers are read for ts only, and refused elsewhere saying why") {
  const LoadedConfig w = load(kBase, {"algorithm=ts", "schedule.kind=periodic",
                                      "schedule.workers=4", "schedule.batches=true"});
  CHECK(w.spec.schedule.workers == 4);
  CHECK(w.spec.schedule.batches);
  CHECK(w.resolved["schedule"]["workers"].as<int>() == 4);
  CHECK(load(kBase, {"schedule.kind=periodic"}).spec.schedule.workers == 1);
  CHECK_THROWS_WITH(load(kBase, {"schedule.kind=buffered", "schedule.workers=2"}),
                    Catch::Contains("s.yaml") && Catch::Contains("schedule.workers") &&
                        Catch::Contains("algorithm dp_fts_de") && Catch::Contains("ts only") &&
                        Catch::Contains("2"));
  CHECK_THROWS_WITH(
      load(kBase, {"algorithm=ts", "schedule.kind=periodic", "schedule.batches=true"}),
      Catch::Contains("schedule.batches") && Catch::Contains("schedule.workers"));
  CHECK_THROWS_WITH(load(kBase, {"algorithm=ts", "schedule.kind=periodic", "schedule.workers=0"}),
                    Catch::Contains("schedule.workers") && Catch::Contains("0"));
  CHECK_THROWS_WITH(load(kBase, {"algorithm=ts", "schedule.workers=2"}),
                    Catch::Contains("schedule.workers"));  // rounds: no clock, not read
}

TEST_CASE("a trace file is read from the config file's directory, a bad one fails at load") {
  const auto dir = std::filesystem::temp_directory_path() / "fbosim_schedule_trace";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "sub");
  {
    std::ofstream t(dir / "sub" / "online.csv");
    t << "agent,start,end\n0,0,100\n1,0,100\n2,5,100\n3,0,50\n";
    std::ofstream c(dir / "sub" / "c.yaml");
    c << kBase << "schedule: {kind: periodic, period: 2}\n"
      << "timing: {availability: {model: trace, trace: online.csv}}\n";
    std::ofstream bad(dir / "sub" / "bad.yaml");
    bad << kBase << "schedule: {kind: periodic, period: 2}\n"
        << "timing: {availability: {model: trace, trace: missing.csv}}\n";
  }
  // From another working directory: the path is the config's directory's.
  const LoadedConfig c = load_config((dir / "sub" / "c.yaml").string(), {});
  CHECK(c.spec.timing.availability.trace == (dir / "sub" / "online.csv").string());
  CHECK(c.resolved["timing"]["availability"]["trace"].as<std::string>() ==
        (dir / "sub" / "online.csv").string());
  CHECK_THROWS_WITH(load_config((dir / "sub" / "bad.yaml").string(), {}),
                    Catch::Contains("bad.yaml") && Catch::Contains("missing.csv"));
  // A trace ends the agents' online time: refused with several workers.
  CHECK_THROWS_WITH(
      load_config((dir / "sub" / "c.yaml").string(), {"algorithm=ts", "schedule.workers=2"}),
      Catch::Contains("c.yaml") && Catch::Contains("timing.availability.model: trace") &&
          Catch::Contains("schedule.workers 2"));
}

TEST_CASE("a trust model runs under every asynchronous schedule (run::release_charge)") {
  // Its own per-agent charges are decided from the time line (docs/TRUST.md); personal rates
  // and budgets stay refused there (personal_budget_test).
  const std::string dp = kBase + "server: {dp: true, sampling_rate: 0.5, noise_multiplier: 1}\n";
  for (const char* trust : {"distributed", "local"}) {
    INFO(trust);
    for (const char* kind : {"buffered", "periodic", "deadline", "latest"})
      CHECK_NOTHROW(
          load(dp, {std::string("schedule.kind=") + kind, std::string("server.trust=") + trust}));
    CHECK_NOTHROW(load(dp, {std::string("server.trust=") + trust}));
  }
  CHECK_NOTHROW(
      load(dp, {"schedule.kind=latest", "server.trust=distributed", "server.sampled_by=agents",
                "server.dropout_padding=0.2", "schedule.age_weight=fedbuff"}));
  CHECK_NOTHROW(load(dp, {"schedule.kind=periodic", "server.trust=central"}));
}
