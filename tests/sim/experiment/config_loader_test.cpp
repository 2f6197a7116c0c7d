#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "sim/experiment/config_loader.hpp"

using namespace fbosim::sim;

namespace {
LoadedConfig load(const std::string& text, const std::vector<std::string>& sets = {}) {
  return load_config_text(text, "test.yaml", "test", sets);
}
}  // namespace

TEST_CASE("every shipped config loads") {
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(FBOSIM_SOURCE_DIR) + "/configs/dp_fts_de")) {
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
  CHECK(c.spec.subregions == 3);
  CHECK(c.spec.server.mechanism.sampling_rate == 0.5);
  CHECK(c.spec.server.mechanism.noise_multiplier == 2);
  CHECK(c.spec.delta() == Approx(std::pow(9.0, -1.1)));
  // The resolved config holds defaults too.
  CHECK(c.resolved["rff"]["features"].as<int>() == 50);
  CHECK(c.resolved["server"]["clip_norm"].as<double>() == 3);
}

TEST_CASE("overrides given with --set reach any key, including nested ones") {
  const LoadedConfig c = load("server: {sampling_rate: 0.25}\n",
                              {"server.sampling_rate=0.1", "rff.features=7", "algorithm=ts",
                               "exploration.weights.adaptive=false"});
  CHECK(c.spec.server.mechanism.sampling_rate == 0.1);
  CHECK(c.spec.features == 7);
  CHECK(c.spec.algorithm == Algorithm::ts);
  CHECK_FALSE(c.spec.weights.adaptive);
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
