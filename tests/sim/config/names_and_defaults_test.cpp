// Issue 39, "names and defaults that hide the algorithm", at the config reader:
//   - a DE name with P = 1 (which runs FTS / DP-FTS, trace for trace) is refused, saying what
//     to set; a config without `algorithm` runs dp_fts_de only with P >= 2 given, else dp_fts;
//   - server.delta's default: min(1e-5, 1/(10 N)) for any N, the papers' N^-1.1 under
//     server.delta_rule: paper, server.delta over both (values written out by hand: 10^-1.1 =
//     0.0794328..., 1/(10 x 20000) = 5e-6); the warning of delta x N > 0.1;
//   - keys that the configured variant ignores are refused like a key of another algorithm
//     (Group::applies_when), unless given with the value in force.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "fts_de_of.hpp"
#include "sim/config/config_loader.hpp"

using namespace fbosim::config;
using Catch::Matchers::Contains;
using fbosim::testing::fts_de_of;

namespace {
LoadedConfig load(const std::string& text, const std::vector<std::string>& sets = {}) {
  return load_config_text(text, "cfg.yaml", "cfg", sets);
}
}  // namespace

TEST_CASE("a DE name with P = 1 is refused, naming the key and what to set") {
  CHECK_THROWS_WITH(
      load("algorithm: dp_fts_de\nagents: {count: 10}\n"),
      Contains("cfg.yaml: exploration.subregions: 1 gives DP-FTS (no distributed exploration) "
               "under algorithm dp_fts_de; set exploration.subregions >= 2 (P = 2 is "
               "DP-FTS-DE's synthetic setting) or use algorithm: dp_fts"));
  CHECK_THROWS_WITH(load("algorithm: fts_de\nagents: {count: 10}\nexploration: {subregions: 1}\n"),
                    Contains("cfg.yaml:3: exploration.subregions: 1 gives FTS") &&
                        Contains("use algorithm: fts"));
  // P >= 2 and the P = 1 names are as they were.
  CHECK(fts_de_of(load("algorithm: dp_fts_de\nexploration: {subregions: 2}\n").spec)->subregions ==
        2);
  CHECK(load("algorithm: dp_fts\n").spec.algorithm == "dp_fts");
  CHECK(load("algorithm: fts\n").spec.algorithm == "fts");
  // `ts` ignores exploration.* (a TS curve shares its FTS-DE config).
  CHECK(load("algorithm: ts\n").spec.algorithm == "ts");
}

TEST_CASE("a config without `algorithm` runs dp_fts_de with P >= 2, else dp_fts, as recorded") {
  const LoadedConfig one = load("agents: {count: 10}\n");
  CHECK(one.spec.algorithm == "dp_fts");
  CHECK(one.resolved["algorithm"].as<std::string>() == "dp_fts");
  const LoadedConfig two = load("agents: {count: 10}\nexploration: {subregions: 2}\n");
  CHECK(two.spec.algorithm == "dp_fts_de");
  CHECK(two.resolved["algorithm"].as<std::string>() == "dp_fts_de");
  CHECK(load("{}", {"exploration.subregions=3"}).spec.algorithm == "dp_fts_de");
}

TEST_CASE("server.delta defaults to min(1e-5, 1/(10 N)), the papers' N^-1.1 on request") {
  CHECK(load("agents: {count: 10}\n").spec.delta() == 1e-5);
  CHECK(load("agents: {count: 10000}\n").spec.delta() == 1e-5);
  CHECK(load("agents: {count: 20000}\n").spec.delta() == Approx(5e-6).epsilon(1e-12));
  const LoadedConfig paper = load("agents: {count: 10}\nserver: {delta_rule: paper}\n");
  CHECK(paper.spec.delta() == Approx(0.0794328234724281).epsilon(1e-12));
  CHECK(load("agents: {count: 200}\nserver: {delta_rule: paper}\n").spec.delta() ==
        Approx(0.0029435200932624).epsilon(1e-10));
  // server.delta overrides the rule.
  CHECK(load("agents: {count: 10}\nserver: {delta_rule: paper, delta: 1.0e-7}\n").spec.delta() ==
        1e-7);
  // The resolved config records the rule and the delta used, and re-reads to the same run.
  CHECK(paper.resolved["server"]["delta_rule"].as<std::string>() == "paper");
  CHECK_THROWS_WITH(load("server: {delta_rule: papr}\n"), Contains("server.delta_rule"));
}

TEST_CASE("one agent with DP needs server.delta only under the paper's rule") {
  CHECK(load("agents: {count: 1}\n").spec.delta() == 1e-5);
  CHECK_THROWS_WITH(load("agents: {count: 1}\nserver: {delta_rule: paper}\n"),
                    Contains("agents.count") && Contains("server.delta_rule: paper"));
}

TEST_CASE("delta x N above 0.1 warns, naming delta, N and 1/(10 N)") {
  const LoadedConfig paper = load("agents: {count: 10}\nserver: {delta_rule: paper}\n");
  REQUIRE(paper.spec.delta_times_agents());
  CHECK(*paper.spec.delta_times_agents() == Approx(0.794328234724281));
  const std::string w = paper.spec.delta_warning();
  CHECK_THAT(w, Contains("delta = 0.0794") && Contains("1/(10 N) = 0.01") &&
                    Contains("N = 10 agents") && Contains("server.delta_rule: paper"));
  CHECK(load("agents: {count: 10}\n").spec.delta_warning().empty());
  // At exactly 0.1 no warning; above it one.
  CHECK(load("agents: {count: 10}\nserver: {delta: 0.01}\n").spec.delta_warning().empty());
  CHECK_FALSE(load("agents: {count: 10}\nserver: {delta: 0.0101}\n").spec.delta_warning().empty());
  // Without DP there is no delta to warn about.
  CHECK_FALSE(load("algorithm: fts\nagents: {count: 10}\nserver: {delta_rule: paper}\n")
                  .spec.delta_times_agents());
}

TEST_CASE("a key the configured variant ignores is refused, naming the key that decides") {
  CHECK_THROWS_WITH(
      load("server: {clip_quantile: 0.9}\n"),
      Contains("cfg.yaml:1: server.clip_quantile: changes nothing with server.clipping: fixed (it "
               "applies only with server.clipping: adaptive); leave it out, or set "
               "server.clipping: adaptive, got 0.9"));
  CHECK_THROWS_WITH(load("server: {clip_learning_rate: 0.5}\n"),
                    Contains("server.clip_learning_rate"));
  CHECK_THROWS_WITH(load("server: {clip_count_noise: 2}\n"), Contains("server.clip_count_noise"));
  CHECK(fts_de_of(load("server: {clipping: adaptive, clip_quantile: 0.9}\n").spec)
            ->mechanism.clip_quantile == 0.9);
  CHECK_THROWS_WITH(load("objective: {family: gp_grid}\nlocal_ts: {method: exact, features: 20}\n"),
                    Contains("local_ts.features") && Contains("local_ts.method: exact") &&
                        Contains("local_ts.method: rff"));
  CHECK_THROWS_WITH(load("gp: {fit: false, restarts: 9}\n"), Contains("gp.restarts") &&
                                                                 Contains("gp.fit: false") &&
                                                                 Contains("gp.fit: true"));
  CHECK_THROWS_WITH(
      load("network: {latency: {min: 1}}\n"),
      Contains("network.latency.min") && Contains("network.latency.distribution: constant"));
  CHECK_THROWS_WITH(load("network: {latency: {distribution: uniform, mean: 3}}\n"),
                    Contains("network.latency.mean"));
}

TEST_CASE(
    "a key the variant ignores, given with the value in force, is accepted (resolved "
    "configs record every key)") {
  const LoadedConfig c = load("server: {clipping: fixed, clip_quantile: 0.5}\n");
  CHECK(fts_de_of(c.spec)->mechanism.clip_quantile == 0.5);
  // Every resolved config re-reads: it gives every key, each with the value in force.
  const LoadedConfig r = load("objective: {family: gp_grid}\nlocal_ts: {method: exact}\n");
  YAML::Emitter y;
  y << r.resolved;
  CHECK_NOTHROW(load(y.c_str()));
}
