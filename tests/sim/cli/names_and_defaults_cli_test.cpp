// Issue 39, "names and defaults that hide the algorithm", as a user meets it on the command
// line: a DE name with P = 1 is an error that leaves nothing on disk; a run whose delta x N
// exceeds 0.1 (the papers' N^-1.1 at N = 10: 10^-0.1 = 0.794...) warns on stderr even with
// --quiet and records it in provenance.yaml and summary.csv's delta_times_n; the default delta
// min(1e-5, 1/(10 N)) does not warn; a run that clips more than 10% of its messages warns and
// points to `fbosim calibrate-clip`, which prints the clip norm for a chosen share.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "fbosim_process.hpp"

namespace {
namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using fbosim_test::fbosim;

const std::string kConfig =
    "name: issue39\nalgorithm: dp_fts_de\nrounds: 2\nruns: 1\nseed: 1\n"
    "objective: {family: gp_grid, grid_points: 100, lengthscale: 0.05}\n"
    "agents: {count: 10, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 20, lengthscale: 0.05}\nlocal_ts: {features: 30}\n";

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path fresh(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("fbosim_issue39_" + name);
  fs::remove_all(p);
  return p;
}

// The cells of column `name` in the first data row of a CSV.
std::string first_cell(const std::string& csv, const std::string& name) {
  std::stringstream in(csv);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  std::stringstream h(header), r(row);
  for (std::string col, cell; std::getline(h, col, ',');) {
    std::getline(r, cell, ',');
    if (col == name) return cell;
  }
  return "(no column " + name + ")";
}

}  // namespace

TEST_CASE("fbosim run: dp_fts_de with P = 1 is refused and writes nothing") {
  const std::string cfg = fbosim_test::write_temp("issue39_p1.yaml", kConfig);
  const fs::path out = fresh("p1");
  const auto r = fbosim("run " + cfg + " --set exploration.subregions=1 --out " + out.string());
  CHECK(r.status == 1);
  CHECK_THAT(r.text, Contains("exploration.subregions: 1 gives DP-FTS") &&
                         Contains("use algorithm: dp_fts"));
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("fbosim run: delta x N > 0.1 warns on stderr, in provenance.yaml and summary.csv") {
  const std::string cfg = fbosim_test::write_temp("issue39_delta.yaml", kConfig);
  const fs::path out = fresh("paper");
  const auto r =
      fbosim("run " + cfg + " --quiet --set server.delta_rule=paper --out " + out.string());
  REQUIRE(r.status == 0);
  CHECK_THAT(r.text, Contains("fbosim: warning: delta = 0.0794 exceeds 1/(10 N) = 0.01 for N = "
                              "10 agents (delta x N = 0.794)"));
  const std::string summary = slurp(out / "summary.csv");
  CHECK_THAT(summary, Contains(",delta,delta_times_n,n"));
  CHECK(std::stod(first_cell(summary, "delta_times_n")) == Approx(0.7943282347242815));
  const std::string prov = slurp(out / "provenance.yaml");
  CHECK_THAT(prov, Contains("delta_rule: paper") && Contains("delta_warning: \"delta = 0.0794"));

  const fs::path quiet = fresh("default");
  const auto d = fbosim("run " + cfg + " --quiet --out " + quiet.string());
  REQUIRE(d.status == 0);
  CHECK(d.text.find("warning: delta") == std::string::npos);
  const std::string s2 = slurp(quiet / "summary.csv");
  CHECK(first_cell(s2, "delta") == "1e-05");
  CHECK(std::stod(first_cell(s2, "delta_times_n")) == Approx(1e-4));
  CHECK_THAT(slurp(quiet / "provenance.yaml"),
             Contains("delta_rule: default") && Contains("delta_warning: ~"));
}

TEST_CASE("fbosim run: clipping more than 10% of the messages warns") {
  const std::string cfg = fbosim_test::write_temp("issue39_clip.yaml", kConfig);
  const fs::path out = fresh("clip");
  const auto r =
      fbosim("run " + cfg + " --quiet --set server.clip_norm=1e-6 --out " + out.string());
  REQUIRE(r.status == 0);
  CHECK_THAT(r.text, Contains("fbosim: warning: 100.0% of the messages were clipped") &&
                         Contains("fbosim calibrate-clip"));
  const fs::path big = fresh("noclip");
  const auto b = fbosim("run " + cfg + " --quiet --set server.clip_norm=1e9 --out " + big.string());
  REQUIRE(b.status == 0);
  CHECK(b.text.find("were clipped") == std::string::npos);
}

TEST_CASE("fbosim calibrate-clip prints the norms' quantiles and the clip norm") {
  const std::string cfg = fbosim_test::write_temp("issue39_cal.yaml", kConfig);
  const auto r = fbosim("calibrate-clip " + cfg + " --quantile 0.5 --threads 2");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.text, Contains("a pilot without DP") &&
                         Contains("1 run(s) x 10 agents x 2 round(s)") &&
                         Contains("20 messages reached the server") &&
                         Contains("leaves 50% of the pilot's messages unclipped") &&
                         Contains("server.clipping: adaptive"));
  // The S printed clips at most half of the pilot's messages (rounded up, never down).
  std::smatch m;
  REQUIRE(std::regex_search(r.text, m, std::regex(R"(it clips ([0-9.]+)%\))")));
  CHECK(std::stod(m[1]) <= 50.0);
  // Writes nothing, and refuses what has no clip norm or a share outside (0, 1].
  CHECK(fbosim("calibrate-clip " + cfg + " --quantile 0").status == 2);
  const auto ts = fbosim("calibrate-clip " + cfg + " --set algorithm=fts_de");
  CHECK(ts.status == 1);
  CHECK_THAT(ts.text, Contains("algorithm fts_de clips nothing"));
}

TEST_CASE("fbosim sweep: the points' delta and clipping warnings reach stderr, as run's do") {
  const std::string cfg = fbosim_test::write_temp("issue39_sweep.yaml", kConfig);
  const fs::path out = fresh("sweep");
  // Five points under the paper's rule at N = 10 (delta x N = 0.794 each): three in full, then
  // a count; every point clips all its messages at S = 1e-6.
  const auto r = fbosim("sweep " + cfg +
                        " --quiet --jobs 1 --threads 1 --set server.delta_rule=paper "
                        "--set server.clip_norm=1e-6 --grid seed=1,2,3,4,5 --out " +
                        out.string());
  REQUIRE(r.status == 0);
  CHECK_THAT(r.text, Contains("fbosim: warning: sweep point seed=1: delta = 0.0794 exceeds "
                              "1/(10 N) = 0.01 for N = 10 agents") &&
                         Contains("fbosim: warning: 2 more sweep points have delta x N above "
                                  "0.1"));
  CHECK(r.text.find("sweep point seed=4: delta") == std::string::npos);
  CHECK_THAT(r.text, Contains("sweep point seed=5: 100.0% of the messages were clipped"));
  const fs::path quiet = fresh("sweep_default");
  const auto d = fbosim("sweep " + cfg + " --quiet --jobs 1 --threads 1 --grid seed=1,2 --out " +
                        quiet.string());
  REQUIRE(d.status == 0);
  CHECK(d.text.find("warning") == std::string::npos);
}
