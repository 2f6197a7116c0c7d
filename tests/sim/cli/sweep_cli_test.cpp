#include <catch2/catch.hpp>

#include "fbosim_process.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {
using fbosim_test::fbosim;
using fbosim_test::Output;
using fbosim_test::write_temp;

const char* kTiny =
    "rounds: 3\nruns: 1\nobjective: {grid_points: 100}\nagents: {count: 4, init_points: 2}\n"
    "rff: {features: 10}\nlocal_ts: {features: 10}\n"
    "sweep:\n  server.noise_multiplier: [1, 2]\n  server.sampling_rate: [0.3, 0.6, 0.9]\n";

std::string setup(const std::string& name, std::filesystem::path& out) {
  const auto cfg = std::filesystem::temp_directory_path() / ("fbosim_" + name + ".yaml");
  std::ofstream(cfg) << kTiny;
  out = std::filesystem::temp_directory_path() / ("fbosim_" + name + "_out");
  std::filesystem::remove_all(out);
  return cfg.string();
}

int lines(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) ++n;
  return n;
}
}  // namespace

TEST_CASE("fbosim sweep runs the YAML grids with command-line grids replacing theirs") {
  std::filesystem::path out;
  const std::string cfg = setup("sweep_cli", out);
  const Output o = fbosim("sweep " + cfg + " --grid server.sampling_rate=0.5,1 --jobs 2 " +
                          "--threads 1 --out " + out.string());
  INFO(o.text);
  REQUIRE(o.status == 0);
  CHECK(o.text.find("[4/4] done server.noise_multiplier=") != std::string::npos);
  CHECK(o.text.find(", ETA ") != std::string::npos);
  CHECK(lines(out / "sweep.csv") == 1 + 4);
  CHECK(std::filesystem::exists(out / "server.noise_multiplier=2,server.sampling_rate=1" /
                                "summary.csv"));
  // fbosim run takes the same file and ignores its sweep section.
  CHECK(fbosim("run " + cfg + " --quiet --out " + (out / "single").string()).status == 0);
}

TEST_CASE("fbosim sweep --shard and fbosim merge report missing points") {
  std::filesystem::path out;
  const std::string cfg = setup("merge_cli", out);
  for (int k = 1; k <= 2; ++k) {
    const Output o = fbosim("sweep " + cfg + " --shard " + std::to_string(k) + "/2 --out " +
                            (out / ("shard-" + std::to_string(k))).string());
    INFO(o.text);
    REQUIRE(o.status == 0);
    CHECK(o.text.find("3 point(s) (shard " + std::to_string(k) + "/2 of 6)") != std::string::npos);
  }
  const Output partial =
      fbosim("merge " + (out / "shard-1").string() + " --out " + (out / "partial").string());
  CHECK(partial.status != 0);
  CHECK(partial.text.find("3 point(s) missing") != std::string::npos);
  CHECK(partial.text.find("server.noise_multiplier=1,server.sampling_rate=0.6") !=
        std::string::npos);
  const Output full = fbosim("merge " + (out / "shard-1").string() + " " +
                             (out / "shard-2").string() + " --out " + (out / "all").string());
  INFO(full.text);
  CHECK(full.status == 0);
  CHECK(lines(out / "all" / "sweep.csv") == 1 + 6);
}
