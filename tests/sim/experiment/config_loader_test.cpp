#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <yaml-cpp/yaml.h>

#include "sim/experiment/config_loader.hpp"

using namespace fbosim::sim;

namespace {
LoadedConfig load(const std::string& text, const std::vector<std::string>& sets = {}) {
  return load_config_text(text, "test.yaml", "test", sets);
}
}  // namespace

TEST_CASE("every shipped config loads") {
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(FBOSIM_SOURCE_DIR) + "/configs")) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path());
    CHECK_NOTHROW(load_config(entry.path().string(), {}));
  }
}

TEST_CASE("defaults and explicit values reach the spec") {
  const LoadedConfig c = load(
      "rounds: 7\nagents: {count: 9}\nexploration: {subregions: 3}\n"
      "server: {sampling_rate: 0.5, noise_multiplier: 2, clip_norm: 3, sampling: poisson}\n");
  CHECK(c.spec.name == "test");
  CHECK(c.spec.rounds == 7);
  CHECK(c.spec.agents == 9);
  REQUIRE(c.spec.fts_de());
  CHECK(c.spec.fts_de()->subregions == 3);
  CHECK(c.spec.fts_de()->mechanism.sampling_rate == 0.5);
  CHECK(c.spec.fts_de()->mechanism.noise_multiplier == 2);
  CHECK(c.spec.delta() == Approx(std::pow(9.0, -1.1)));
  // The resolved config holds defaults too.
  CHECK(c.resolved["rff"]["features"].as<int>() == 50);
  CHECK(c.resolved["server"]["clip_norm"].as<double>() == 3);
}

TEST_CASE("overrides given with --set reach any key, including nested ones") {
  const LoadedConfig c = load("server: {sampling_rate: 0.25}\n",
                              {"server.sampling_rate=0.1", "rff.features=7", "algorithm=ts",
                               "exploration.weights.adaptive=false"});
  CHECK(c.spec.fts_de()->mechanism.sampling_rate == 0.1);
  CHECK(c.spec.fts_de()->features == 7);
  CHECK(c.spec.algorithm == "ts");
  CHECK_FALSE(c.spec.fts_de()->server);
  CHECK_FALSE(c.spec.fts_de()->weights.adaptive);
  CHECK(c.resolved["server"]["sampling_rate"].as<double>() == 0.1);
}

TEST_CASE("an unknown key is an error naming it, in the file and through --set") {
  CHECK_THROWS_WITH(load("server: {smapling_rate: 0.2}\n"),
                    Catch::Contains("test.yaml") && Catch::Contains("server.smapling_rate"));
  CHECK_THROWS_WITH(load("", {"rff.featurs=3"}), Catch::Contains("rff.featurs"));
  CHECK_THROWS_AS(load("bogus: 1\n"), ConfigError);
}

TEST_CASE("out-of-range and mistyped values name the key and the value") {
  CHECK_THROWS_WITH(load("server: {sampling_rate: 1.5}\n"),
                    Catch::Contains("server.sampling_rate") && Catch::Contains("1.5"));
  CHECK_THROWS_WITH(load("server: {noise_multiplier: -1}\n"),
                    Catch::Contains("server.noise_multiplier") && Catch::Contains("-1"));
  CHECK_THROWS_WITH(load("rounds: many\n"), Catch::Contains("rounds") && Catch::Contains("many"));
  CHECK_THROWS_WITH(load("algorithm: ucb\n"), Catch::Contains("algorithm") &&
                                                  Catch::Contains("ucb") &&
                                                  Catch::Contains("fts_de"));
  CHECK_THROWS_WITH(load("agents: {count: 0}\n"), Catch::Contains("agents.count"));
  CHECK_THROWS_WITH(load("server: 3\n"), Catch::Contains("server"));
  CHECK_THROWS_WITH(load("", {"objective.noise_var=.nan"}),
                    Catch::Contains("objective.noise_var") && Catch::Contains("nan"));
  CHECK_THROWS_WITH(load("exploration: {schedule: fast}\n"),
                    Catch::Contains("exploration.schedule") && Catch::Contains("fast"));
}

TEST_CASE("malformed YAML names the file and the line") {
  CHECK_THROWS_WITH(load("rounds: 5\nserver: {sampling_rate: 0.2\n"),
                    Catch::Contains("test.yaml:") && Catch::Contains("malformed YAML"));
  CHECK_THROWS_WITH(load("", {"novalue"}), Catch::Contains("key=value"));
}

TEST_CASE("a missing config file is an error naming the path") {
  CHECK_THROWS_WITH(load_config("/nonexistent/x.yaml", {}), Catch::Contains("/nonexistent/x.yaml"));
}

TEST_CASE("a key given twice is an error naming the key and both lines") {
  CHECK_THROWS_WITH(load("rounds: 2\nruns: 1\nrounds: 3\n"),
                    Catch::Contains("test.yaml") && Catch::Contains("rounds") &&
                        Catch::Contains("line 1") && Catch::Contains("line 3"));
  CHECK_THROWS_WITH(load("server: {clip_norm: 1, clip_norm: 2}\n"),
                    Catch::Contains("server.clip_norm") && Catch::Contains("twice"));
}

TEST_CASE("a key without a value is an error, except the optional server.delta") {
  CHECK_THROWS_WITH(load("rounds:\n"), Catch::Contains("rounds") && Catch::Contains("no value"));
  CHECK_THROWS_WITH(load("", {"rounds="}),
                    Catch::Contains("rounds") && Catch::Contains("no value"));
  CHECK_FALSE(load("server: {delta: ~}\n").spec.server.delta.has_value());
}

TEST_CASE("the resolved config of every shipped config loads back to the same resolved config") {
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(FBOSIM_SOURCE_DIR) + "/configs")) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path());
    const LoadedConfig c = load_config(entry.path().string(), {});
    const LoadedConfig again = load(YAML::Dump(c.resolved));
    CHECK(YAML::Dump(again.resolved) == YAML::Dump(c.resolved));
  }
}

TEST_CASE("no floating-point key takes nan or inf") {
  for (const char* key : {"server.clip_norm", "objective.lengthscale", "network.latency.mean",
                          "rff.lambda", "gp.noise_var", "server.delta"})
    for (const char* value : {".nan", ".inf", "-.inf"}) {
      INFO(key << " = " << value);
      CHECK_THROWS_WITH(load("", {std::string(key) + "=" + value}), Catch::Contains(key) &&
                                                                        Catch::Contains("finite") &&
                                                                        Catch::Contains(value));
    }
}

TEST_CASE("unknown keys and bad choices suggest the closest valid one") {
  CHECK_THROWS_WITH(load("roudns: 3\n"), Catch::Contains("did you mean 'rounds'"));
  CHECK_THROWS_WITH(load("", {"sever.dp=false"}), Catch::Contains("did you mean 'server.dp'"));
  CHECK_THROWS_WITH(load("algorithm: fts-de\n"), Catch::Contains("did you mean 'fts_de'"));
  // Nothing close: no suggestion.
  CHECK_THROWS_WITH(load("zzzzzzzz: 3\n"), !Catch::Contains("did you mean"));
  CHECK(closest_match("thrads", {"threads", "runs"}) == "threads");
  CHECK(closest_match("xyz", {"threads", "runs"}).empty());
}

TEST_CASE("the name is one safe directory name") {
  for (const char* bad : {"..", ".", "a/b", "a\\\\b", "''", "\"a\\tb\""}) {
    INFO(bad);
    CHECK_THROWS_WITH(load(std::string("name: ") + bad + "\n"), Catch::Contains("name"));
  }
  CHECK_THROWS_WITH(load("name: " + std::string(201, 'n') + "\n"), Catch::Contains("name"));
  CHECK(load("name: fig2a_z1.5+q0.25\n").spec.name == "fig2a_z1.5+q0.25");
}

TEST_CASE("sub-regions need agents, and the default delta needs two agents") {
  CHECK_THROWS_WITH(load("agents: {count: 4}\nexploration: {subregions: 5}\n"),
                    Catch::Contains("exploration.subregions") && Catch::Contains("agents.count"));
  CHECK_THROWS_WITH(load("agents: {count: 1}\n"),
                    Catch::Contains("agents.count") && Catch::Contains("server.delta"));
  CHECK(load("agents: {count: 1}\nserver: {delta: 1.0e-5}\n").spec.agents == 1);
  CHECK(load("agents: {count: 1}\nalgorithm: ts\n").spec.agents == 1);
}

TEST_CASE("size keys are bounded and an absurd memory or work estimate names its keys") {
  CHECK_THROWS_WITH(load("rounds: 1000000000\n"),
                    Catch::Contains("rounds") && Catch::Contains("1000000000"));
  CHECK_THROWS_WITH(load("rff: {features: 1000000000}\n"), Catch::Contains("rff.features"));
  CHECK_THROWS_WITH(load("objective: {grid_points: 60000}\n"),
                    Catch::Contains("objective.grid_points") && Catch::Contains("60000"));
  // 100000 agents x 2 x 100000^2 doubles = 1.6e16 bytes = 1.49e7 GiB of posteriors.
  CHECK_THROWS_WITH(load("agents: {count: 100000}\nrff: {features: 100000}\n"),
                    Catch::Contains("agents.count = 100000 x rff.features = 100000") &&
                        Catch::Contains("1.49e+07 GiB in memory"));
  // 1000 agents x 1e5 rounds = 1e8 local TS steps, each with 1e5 observations x 1000^2 flops
  // for the features' Gram matrix: 1e19; the traces hold 2.4 GiB, under any machine's memory.
  CHECK_THROWS_WITH(load("runs: 1\nrounds: 100000\nagents: {count: 1000}\n"
                         "local_ts: {features: 1000}\n"),
                    Catch::Contains("floating-point operations") &&
                        Catch::Contains("local_ts.features") &&
                        Catch::Contains("years on one core"));
}

TEST_CASE("every accountant must support the release: a supports() question, naming the event") {
  const std::string fixed = "agents: {count: 29}\nserver: {sampling: fixed, sampling_rate: 0.25}\n";
  CHECK_NOTHROW(load(fixed + "", {"server.accountant=rdp"}));
  CHECK_THROWS_WITH(load(fixed), Catch::Contains("server.accountant") &&
                                     Catch::Contains("FixedSampled(m=7, N=29, Gaussian(z=1))"));
  CHECK_THROWS_WITH(load(fixed, {"server.accountant=rdp", "server.accountants=rdp,pld"}),
                    Catch::Contains("server.accountants") && Catch::Contains("'pld'"));
  CHECK_THROWS_WITH(load("", {"server.accountant=basic"}),
                    Catch::Contains("basic") && Catch::Contains("PoissonSampled"));
  CHECK_THROWS_WITH(load("agents: {count: 10}\nserver: {sampling: fixed, sampling_rate: 0.05}\n",
                         {"server.accountant=rdp"}),
                    Catch::Contains("floor(N q) = 0"));
}

TEST_CASE("the papers' names are presets of the DP-FTS-DE keys, and contradictions are errors") {
  const auto dp = [](const LoadedConfig& c) {
    return c.spec.fts_de()->server && c.spec.fts_de()->dp;
  };
  CHECK(dp(load("algorithm: dp_fts_de\nexploration: {subregions: 2}\n")));
  CHECK(dp(load("algorithm: dp_fts\n")));
  CHECK_FALSE(dp(load("algorithm: fts\n")));
  CHECK_FALSE(load("algorithm: ts\n").spec.fts_de()->server);
  // fts_de keeps the meaning it had before the registry: private unless server.dp is false.
  CHECK(dp(load("algorithm: fts_de\n")));
  CHECK_FALSE(dp(load("algorithm: fts_de\nserver: {dp: false}\n")));
  CHECK(load("algorithm: dp_fts_de\n").resolved["server"]["dp"].as<bool>());
  CHECK_THROWS_WITH(load("algorithm: fts\nserver: {dp: true}\n"),
                    Catch::Contains("server.dp") && Catch::Contains("use algorithm dp_fts"));
  CHECK_THROWS_WITH(load("algorithm: dp_fts_de\nserver: {dp: false}\n"),
                    Catch::Contains("server.dp") && Catch::Contains("fts_de"));
  CHECK_THROWS_WITH(load("algorithm: dp_fts\nexploration: {subregions: 2}\n"),
                    Catch::Contains("exploration.subregions") && Catch::Contains("dp_fts_de"));
  CHECK_THROWS_WITH(load("algorithm: ucb\n"),
                    Catch::Contains("fts_target") && Catch::Contains("dp_fts_de"));
}

TEST_CASE("the DP-FTS-DE family's local TS step: exact on a grid family, refused on a box") {
  CHECK(load("algorithm: ts\nlocal_ts: {method: exact}\n").spec.fts_de()->agent.local.model ==
        fbosim::agents::OwnModel::exact);
  CHECK(load("algorithm: ts\n").spec.fts_de()->agent.local.model == fbosim::agents::OwnModel::rff);
  CHECK_THROWS_WITH(
      load("algorithm: dp_fts_de\nlocal_ts: {method: exact}\n", {"objective.family=gp_box"}),
      Catch::Contains("local_ts.method") && Catch::Contains("grid"));
}

TEST_CASE("FTS's target-agent keys: sources, target, and keys of other algorithms refused") {
  const std::string base =
      "algorithm: fts_target\nagents: {count: 11, init_points: 1}\n"
      "objective: {family: gp_grid, grid_points: 100}\n";
  const LoadedConfig c = load(base + "sources: {history: random, points: 40}\n");
  CHECK_FALSE(c.spec.is_private());
  CHECK(c.spec.objective.synthetic.unperturbed == 1);  // the target sees f itself
  CHECK(c.resolved["sources"]["points"].as<int>() == 40);
  CHECK(c.resolved["target"]["schedule"].as<std::string>() == "inv_sqrt");
  CHECK_THROWS_WITH(load(base + "exploration: {subregions: 2}\n"),
                    Catch::Contains("exploration.subregions"));
  CHECK_THROWS_WITH(load(base + "server: {dp: true}\n"), Catch::Contains("server.dp"));
  CHECK_THROWS_WITH(load(base + "target: {agents: 2}\n"),
                    Catch::Contains("target.agents") && Catch::Contains("synthetic"));
  CHECK_THROWS_WITH(load(base + "sources: {pairing: authors}\n"),
                    Catch::Contains("sources.pairing"));
  CHECK_THROWS_WITH(load(base + "local_ts: {method: exact}\n", {"objective.family=gp_box"}),
                    Catch::Contains("grid"));
  CHECK_THROWS_WITH(load("algorithm: fts_target\nagents: {count: 1}\n"),
                    Catch::Contains("agents.count"));
}

TEST_CASE("PO-GP-UCB keys: the variants' defaults, the accounting they set, errors naming keys") {
  const std::string base =
      "algorithm: po_gp_ucb\nagents: {count: 1}\n"
      "objective: {family: gp_grid2d, grid_side: 20}\n";
  const LoadedConfig paper = load(base);
  CHECK(paper.spec.is_private());
  CHECK(paper.spec.server.accountant == "basic");
  CHECK(paper.spec.delta() == 1e-5);
  CHECK(paper.resolved["curator"]["r"].as<int>() == 10);
  CHECK(paper.resolved["curator"]["max_norm"].as<double>() == 25);
  CHECK(paper.resolved["ucb"]["delta"].as<double>() == 0.025);
  CHECK(paper.resolved["gp"]["lengthscale"].as<double>() == 1.25);
  CHECK(paper.resolved["objective"]["lengthscale"].as<double>() == 1.25);
  CHECK(paper.resolved["objective"]["noise_var"].as<double>() == 1e-5);
  const LoadedConfig authors = load(base + "po: {variant: authors}\n");
  CHECK(authors.resolved["ucb"]["delta"].as<double>() == 0.1);
  CHECK(authors.resolved["gp"]["lengthscale"].as<double>() == 6.25);
  // Six agents: six releases, the sum of their deltas by default.
  CHECK(load(base, {"agents.count=6"}).spec.delta() == Approx(6e-5));
  const LoadedConfig baseline = load(base, {"algorithm=gp_ucb"});
  CHECK_FALSE(baseline.spec.is_private());
  CHECK_THROWS_WITH(
      load(base + "curator: {epsilon: -1}\n"),
      Catch::Contains("test.yaml") && Catch::Contains("curator.epsilon") && Catch::Contains("-1"));
  CHECK_THROWS_WITH(load(base + "curator: {delta: 1}\n"), Catch::Contains("curator.delta"));
  CHECK_THROWS_WITH(load(base + "po: {variant: author}\n"),
                    Catch::Contains("po.variant") && Catch::Contains("authors"));
  CHECK_THROWS_WITH(load("algorithm: po_gp_ucb\nobjective: {family: gp_box}\n"),
                    Catch::Contains("objective.family") && Catch::Contains("gp_box"));
  CHECK_THROWS_WITH(load(base + "server: {accountant: rdp}\n"),
                    Catch::Contains("server.accountant") && Catch::Contains("EpsilonDelta"));
  // A delta below the releases' own: no epsilon can be stated.
  CHECK_THROWS_WITH(load(base + "server: {delta: 1.0e-6}\n"),
                    Catch::Contains("server.delta") && Catch::Contains("basic"));
  CHECK_THROWS_WITH(load(base, {"objective.grid_points=20"}),
                    Catch::Contains("objective.grid_points"));
}

TEST_CASE("DP-BO keys: mechanisms, observations, the constants a release cannot do without") {
  const std::string base =
      "algorithm: dp_bo\nagents: {count: 2}\nobjective: {family: gp_grid2d, grid_side: 8}\n";
  const LoadedConfig k = load(base + "release: {epsilon: 0.5, delta: 1.0e-4}\n");
  CHECK(k.spec.server.accountant == "basic");
  CHECK(k.spec.delta() == Approx(2 * 2 * 1e-4));  // 2 agents x 2 releases
  CHECK(k.spec.system->releases_values());
  const LoadedConfig ps = load(base + "release: {mechanism: papernot_steinke, epsilon: 1}\n");
  CHECK(ps.spec.server.accountant == "rdp");
  CHECK(ps.spec.delta() == 1e-3);
  CHECK(ps.resolved["release"]["repetitions"]["shape"].as<double>() == 1);
  CHECK_THROWS_WITH(load(base + "release: {observations: noise_free}\n"),
                    Catch::Contains("release.de_freitas.a"));
  CHECK_NOTHROW(load(base + "release: {observations: noise_free, value: false}\n"));
  CHECK_THROWS_WITH(load(base + "release: {observations: noise_free, value: false}\n"
                                "gp: {noise_var: 0.1}\n"),
                    Catch::Contains("gp.noise_var"));
  CHECK_THROWS_WITH(load(base + "release: {hyperparameter: false, value: false}\n"),
                    Catch::Contains("nothing to release"));
  CHECK_THROWS_WITH(load(base + "release: {neighbour_kernel: 1.5}\n"),
                    Catch::Contains("release.neighbour_kernel") && Catch::Contains("1.5"));
  CHECK_THROWS_WITH(load(base + "release: {mechanism: papernot_steinke, repetitions: {mean: 1}}\n"),
                    Catch::Contains("release.repetitions.mean"));
  CHECK_THROWS_WITH(load(base + "candidates: {per_axis: 1}\n"),
                    Catch::Contains("candidates.per_axis"));
}
