// Issue 43: the command line as users of other tools type it. Hydra's `key=value` after the
// config is refused with the `--set` spelling; -q is --quiet; a sweep grown with more runs says
// so instead of "its config changed".
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "fbosim_process.hpp"

namespace fs = std::filesystem;
using fbosim_test::fbosim;
using fbosim_test::Output;
using fbosim_test::write_temp;

namespace {

const char* const kNewcomerTiny =
    "algorithm: dp_fts_de\nrounds: 3\nruns: 2\nobjective: {grid_points: 100}\n"
    "agents: {count: 4, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 10}\nlocal_ts: {features: 10}\nserver: {dp: true, sampling_rate: 0.5}\n";

fs::path newcomer_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fbosim_i43_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("issue 43: `fbosim run CONFIG key=value` is refused with the --set spelling") {
  const fs::path d = newcomer_dir("bare");
  const std::string cfg = write_temp("fbosim_i43_bare.yaml", kNewcomerTiny);
  const std::string out = (d / "out").string();
  const Output o = fbosim("run " + cfg + " rounds=5 --out " + out);
  INFO(o.text);
  CHECK(o.status == 2);
  CHECK_THAT(o.text, Catch::Contains("unexpected argument 'rounds=5'") &&
                         Catch::Contains("--set KEY=VALUE") &&
                         Catch::Contains("fbosim run " + cfg + " --set rounds=5 --out " + out));
  CHECK_FALSE(fs::exists(out));
  // Two of them, and a --set after them (whose value is no bare word): each bare one gets its
  // --set. (After --set, CLI11 takes further words as more --set values.)
  const Output two =
      fbosim("run " + cfg + " rounds=5 server.noise_multiplier=2 --set runs=1 --out " + out);
  INFO(two.text);
  CHECK(two.status == 2);
  CHECK_THAT(two.text, Catch::Contains("'rounds=5', 'server.noise_multiplier=2'") &&
                           Catch::Contains("fbosim run " + cfg +
                                           " --set rounds=5 --set server.noise_multiplier=2 "
                                           "--set runs=1 --out " +
                                           out));
  // The sweep command too.
  const Output sweep = fbosim("sweep " + cfg + " server.noise_multiplier=2 --out " + out);
  INFO(sweep.text);
  CHECK(sweep.status == 2);
  CHECK_THAT(sweep.text,
             Catch::Contains("fbosim sweep " + cfg + " --set server.noise_multiplier=2"));
  CHECK_FALSE(fs::exists(out));
  fs::remove_all(d);
}

TEST_CASE("issue 43: -q is --quiet for run and sweep") {
  const fs::path d = newcomer_dir("q");
  const std::string cfg = write_temp("fbosim_i43_q.yaml", kNewcomerTiny);
  const Output run = fbosim("run " + cfg + " -q --threads 1 --out " + (d / "run").string());
  INFO(run.text);
  CHECK(run.status == 0);
  CHECK(run.text.empty());
  CHECK(fs::file_size(d / "run" / "summary.csv") > 0);
  const Output sweep = fbosim("sweep " + cfg +
                              " -q --grid server.noise_multiplier=1,2 --jobs 1 "
                              "--threads 1 --out " +
                              (d / "sweep").string());
  INFO(sweep.text);
  CHECK(sweep.status == 0);
  CHECK(sweep.text.empty());
  CHECK(fs::file_size(d / "sweep" / "sweep.csv") > 0);
  fs::remove_all(d);
}

TEST_CASE("issue 43: a sweep grown with more runs says 'growing from 2 to 3 runs (reusing 2)'") {
  const fs::path d = newcomer_dir("grow");
  const std::string cfg = write_temp("fbosim_i43_grow.yaml", kNewcomerTiny);
  const std::string sweep = "sweep " + cfg +
                            " --grid server.noise_multiplier=1,2 --jobs 1 --threads 1 --quiet "
                            "--out " +
                            (d / "s").string();
  REQUIRE(fbosim(sweep + " --runs 2").status == 0);
  const Output grow = fbosim(sweep + " --runs 3");
  INFO(grow.text);
  CHECK(grow.status == 0);
  CHECK_THAT(grow.text, Catch::Contains("fbosim: point server.noise_multiplier=1: growing from 2 "
                                        "to 3 runs (reusing 2)") &&
                            Catch::Contains("fbosim: point server.noise_multiplier=2: growing "
                                            "from 2 to 3 runs (reusing 2)"));
  CHECK_THAT(grow.text, !Catch::Contains("config changed"));
  // Fewer runs: the first ones again.
  const Output cut = fbosim(sweep + " --runs 1");
  INFO(cut.text);
  CHECK(cut.status == 0);
  CHECK_THAT(cut.text, Catch::Contains("shrinking from 3 to 1 runs (reusing 1)"));
  // Files changed behind the sweep's back, the same runs: not a growth.
  std::ofstream(d / "s" / "server.noise_multiplier=1" / "summary.csv", std::ios::app) << "\n";
  const Output changed = fbosim(sweep + " --runs 1");
  INFO(changed.text);
  CHECK(changed.status == 0);
  CHECK_THAT(changed.text, Catch::Contains("files changed since the sweep wrote them") &&
                               !Catch::Contains("growing") && !Catch::Contains("shrinking"));
  // Any other change is still a changed config: refused, and with --force run again.
  const Output other = fbosim(sweep + " --runs 1 --set rounds=4 --force");
  INFO(other.text);
  CHECK(other.status == 0);
  CHECK_THAT(other.text, Catch::Contains("its config changed: running it again") &&
                             !Catch::Contains("growing"));
  fs::remove_all(d);
}
