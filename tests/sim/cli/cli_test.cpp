#include <catch2/catch.hpp>

#include "fbosim_process.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace {
using fbosim_test::fbosim;
using fbosim_test::Output;
using fbosim_test::write_temp;

// The cells of the first data row of a CSV text (after its header).
std::vector<std::string> first_row(const std::string& csv) {
  std::stringstream in(csv);
  std::string header, row, cell;
  std::getline(in, header);
  std::getline(in, row);
  std::stringstream cells(row);
  std::vector<std::string> v;
  while (std::getline(cells, cell, ',')) v.push_back(cell);
  return v;
}
}  // namespace

TEST_CASE("fbosim privacy prints the paper's epsilon as CSV") {
  // The paper's delta N^-1.1 (DP-FTS-DE sec. 5.1): --delta-rule paper.
  const Output o =
      fbosim("privacy --q 0.25 --z 1 --steps 40 --agents 200 --delta-rule paper --format csv");
  REQUIRE(o.status == 0);
  std::stringstream in(o.text);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  CHECK(header == "accountant,sampling,q,z,steps,delta,epsilon,order");
  std::stringstream cells(row);
  std::string cell;
  std::vector<std::string> v;
  while (std::getline(cells, cell, ',')) v.push_back(cell);
  REQUIRE(v.size() == 8);
  CHECK(v[0] == "moments");
  CHECK(std::stod(v[6]) == Approx(9.91).margin(0.005));
}

TEST_CASE("fbosim privacy rejects bad parameters and missing delta") {
  CHECK(fbosim("privacy --q 1.5 --z 1 --steps 40 --agents 200").status != 0);
  CHECK(fbosim("privacy --q 0.2 --z 0 --steps 40 --agents 200").status != 0);
  const Output o = fbosim("privacy --q 0.2 --z 1 --steps 40");
  CHECK(o.status != 0);
  CHECK(o.text.find("--delta") != std::string::npos);
}

TEST_CASE("fbosim run with a bad config exits non-zero, names the key and writes nothing") {
  const std::string cfg = write_temp("fbosim_bad.yaml", "rounds: 2\nserver: {clip_norm: -3}\n");
  const auto out = std::filesystem::temp_directory_path() / "fbosim_bad_out";
  std::filesystem::remove_all(out);
  const Output o = fbosim("run " + cfg + " --out " + out.string());
  CHECK(o.status != 0);
  CHECK(o.text.find("server.clip_norm") != std::string::npos);
  CHECK(o.text.find("-3") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("fbosim run writes results and a summary for a tiny config") {
  const std::string cfg = write_temp(
      "fbosim_tiny.yaml",
      "rounds: 3\nruns: 1\nobjective: {grid_points: 100}\nagents: {count: 4, init_points: 2}\n"
      "rff: {features: 10}\nlocal_ts: {features: 10}\n");
  const auto out = std::filesystem::temp_directory_path() / "fbosim_tiny_out";
  std::filesystem::remove_all(out);
  const Output o = fbosim("run " + cfg + " --threads 2 --out " + out.string() +
                          " --set server.sampling_rate=0.5");
  INFO(o.text);
  CHECK(o.status == 0);
  CHECK(o.text.find("final simple regret") != std::string::npos);
  // One run has no standard error, and the line says so once, without a "mean +- s.e." label.
  CHECK(o.text.find("(one run: no s.e.)") != std::string::npos);
  CHECK(o.text.find("mean +- s.e.") == std::string::npos);
  CHECK(std::filesystem::file_size(out / "summary.csv") > 0);
  // --quiet: no progress and no summary (the files are the same).
  const Output q = fbosim("run " + cfg + " --threads 2 --quiet --out " + out.string() +
                          " --set server.sampling_rate=0.5");
  CHECK(q.status == 0);
  CHECK(q.text.empty());
}

TEST_CASE("fbosim privacy --target-epsilon prints the calibrated z and the epsilon it reaches") {
  // The paper's 9.9085 at z = 1 (q = 0.25, T = 40, N = 200): calibrating to it gives z ~ 1.
  const Output o = fbosim(
      "privacy --q 0.25 --target-epsilon 9.9086 --steps 40 --agents 200 --delta-rule "
      "paper --format csv");
  REQUIRE(o.status == 0);
  const std::vector<std::string> v = first_row(o.text);
  REQUIRE(v.size() == 8);
  CHECK(std::stod(v[3]) == Approx(1.0).epsilon(1e-4));
  CHECK(std::stod(v[6]) <= 9.9086);
  CHECK(fbosim("privacy --q 0.25 --z 1 --target-epsilon 3 --steps 40 --agents 200").status != 0);
  CHECK(fbosim("privacy --q 0.25 --target-epsilon -1 --steps 40 --agents 200").status != 0);
  CHECK(fbosim("privacy --q 0.25 --z 1 --steps -1 --agents 200").status != 0);
  CHECK(fbosim("privacy --q 0.25 --z 1 --steps 4 --delta 1.5").status != 0);
}

TEST_CASE("fbosim run --accountants adds one epsilon column per accountant") {
  const std::string cfg = write_temp(
      "fbosim_acc.yaml",
      "rounds: 3\nruns: 1\nobjective: {grid_points: 100}\nagents: {count: 4, init_points: 2}\n"
      "rff: {features: 10}\nlocal_ts: {features: 10}\n");
  const auto out = std::filesystem::temp_directory_path() / "fbosim_acc_out";
  std::filesystem::remove_all(out);
  const Output o = fbosim("run " + cfg + " --quiet --accountants moments --out " + out.string());
  INFO(o.text);
  REQUIRE(o.status == 0);
  for (const char* file : {"/server.csv", "/summary.csv"}) {
    std::ifstream in(out.string() + file);
    std::string header, row;
    std::getline(in, header);
    CHECK(header.find(",epsilon_moments") != std::string::npos);
    // The extra moments column repeats the configured (moments) epsilon exactly.
    std::vector<std::string> names, cells;
    std::stringstream hs(header);
    for (std::string c; std::getline(hs, c, ',');) names.push_back(c);
    while (std::getline(in, row)) {
      cells.clear();
      std::stringstream rs(row);
      for (std::string c; std::getline(rs, c, ',');) cells.push_back(c);
      REQUIRE(cells.size() == names.size());
      CHECK(cells[names.size() - 1] ==
            cells[std::find(names.begin(), names.end(), "epsilon") - names.begin()]);
    }
  }
  CHECK(fbosim("run " + cfg + " --quiet --accountants nope --out " + out.string() + "_x").status !=
        0);
}

TEST_CASE("fbosim privacy: every accountant, pld well below moments on the paper's setting") {
  const auto eps = [](const std::string& acc) {
    const Output o =
        fbosim("privacy --accountant " + acc +
               " --q 0.25 --z 1 --steps 40 --agents 200 --delta-rule paper --format csv");
    REQUIRE(o.status == 0);
    const auto comma = o.text.rfind(',', o.text.rfind(',') - 1);
    return std::stod(o.text.substr(comma + 1));
  };
  const double moments = eps("moments"), rdp = eps("rdp"), pld = eps("pld");
  CHECK(moments == Approx(9.9085).margin(1e-4));
  CHECK(rdp < moments);
  CHECK(pld < rdp);
  CHECK(pld <= 0.8 * moments);
  CHECK(eps("gdp") > 0);
  CHECK(fbosim("privacy --accountant pld --sampling fixed --q 0.25 --z 1 --steps 4 --agents 20")
            .status != 0);
  CHECK(fbosim("privacy --accountant nope --q 0.25 --z 1 --steps 4 --agents 20").status != 0);
}

TEST_CASE("fbosim audit exits 0 when consistent and 3 when a broken mechanism exceeds the bound") {
  const std::string cfg =
      write_temp("fbosim_audit.yaml",
                 "agents: {count: 50}\nrff: {features: 20}\nexploration: {subregions: 1}\n"
                 "server: {dp: true, sampling_rate: 1.0, noise_multiplier: 1.0, clip_norm: 11}\n");
  const Output ok = fbosim("audit " + cfg + " --trials 40000 --threads 2");
  INFO(ok.text);
  CHECK(ok.status == 0);
  CHECK(ok.text.find("consistent") != std::string::npos);
  const Output broken = fbosim("audit " + cfg + " --trials 40000 --threads 2 --noise-scale 0.5");
  INFO(broken.text);
  CHECK(broken.status == 3);
  CHECK(broken.text.find("VIOLATION") != std::string::npos);
}

TEST_CASE("fbosim audit of dp_bo audits both releases with the sensitivities a run records") {
  // Issue 25: `fbosim audit` dispatches on the algorithm's auditable releases. A dp_bo run writes
  // each release's sensitivity to release.csv; the audit must use the same (init_points +
  // rounds observations on the same candidates).
  const std::string cfg = write_temp(
      "fbosim_audit_dpbo.yaml",
      "algorithm: dp_bo\nrounds: 6\nruns: 1\n"
      "objective: {family: gp_grid2d, grid_side: 6, lengthscale: 6.25, input_norm: 25, "
      "noise_var: 1.0e-3}\nagents: {count: 1, init_points: 2}\n"
      "gp: {lengthscale: 0.25, noise_var: 1.0e-3}\nrelease: {epsilon: 1.0, delta: 1.0e-3}\n");
  const auto out = std::filesystem::temp_directory_path() / "fbosim_audit_dpbo_out";
  std::filesystem::remove_all(out);
  REQUIRE(fbosim("run " + cfg + " --quiet --out " + out.string()).status == 0);
  std::ifstream release(out / "release.csv");
  std::string line;
  std::vector<std::string> sensitivities;
  std::getline(release, line);
  CHECK(line.find(",sensitivity,") != std::string::npos);
  while (std::getline(release, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string c; std::getline(row, c, ',');) cells.push_back(c);
    if (cells.at(3) == "exponential" || cells.at(3) == "laplace") sensitivities.push_back(cells[6]);
  }
  REQUIRE(sensitivities.size() == 2);
  const Output o = fbosim("audit " + cfg + " --trials 2000 --threads 2");
  INFO(o.text);
  CHECK(o.status == 0);
  CHECK(o.text.find("exponential mechanism") != std::string::npos);
  CHECK(o.text.find("Laplace mechanism") != std::string::npos);
  for (const std::string& s : sensitivities)
    CHECK(o.text.find("sensitivity: " + s) != std::string::npos);
  // A config that releases nothing private: exit 1, naming the algorithm.
  const std::string plain = write_temp("fbosim_audit_plain.yaml", "algorithm: fts\n");
  const Output none = fbosim("audit " + plain + " --trials 100");
  CHECK(none.status == 1);
  CHECK(none.text.find(plain + ": algorithm fts releases nothing private") != std::string::npos);
}

TEST_CASE("fbosim audit rejects a non-finite or non-positive --noise-scale with exit code 2") {
  const std::string cfg = write_temp("fbosim_audit_usage.yaml",
                                     "agents: {count: 10}\nrff: {features: 5}\n"
                                     "server: {dp: true, sampling_rate: 1.0}\n");
  for (const std::string v : {"inf", "nan", "0", "-1"}) {
    const Output o = fbosim("audit " + cfg + " --trials 100 --noise-scale " + v);
    INFO(o.text);
    CHECK(o.status == 2);
    CHECK(o.text.find("--noise-scale") != std::string::npos);
    CHECK(o.text.find("got " + v) != std::string::npos);
  }
}

// Issue 28 sec. 6: `fbosim config --resources` prints the estimate a batch job's memory is sized
// from. Between grid_points n = 1000 and 2000 its memory grows by the two terms that hold the
// grid (sim/config/resource_estimate.cpp): the GP prior's 3 n^2 doubles and every agent's
// function, 2 x agents x n doubles; the time halves from one thread to two.
TEST_CASE("fbosim config --resources prints the memory, work and time estimate") {
  const std::string cfg = write_temp("fbosim_resources.yaml",
                                     "rounds: 3\nruns: 1\nagents: {count: 4, init_points: 2}\n"
                                     "rff: {features: 10}\nlocal_ts: {features: 10}\n");
  const auto memory_mib = [&](int n) {
    const Output o =
        fbosim("config " + cfg + " --resources --set objective.grid_points=" + std::to_string(n));
    REQUIRE(o.status == 0);
    CHECK(o.text.find("\nwork: ") != std::string::npos);
    CHECK(o.text.find("\ntime: up to about ") != std::string::npos);
    CHECK(o.text.find("\nthis process may use: ") != std::string::npos);
    REQUIRE(o.text.rfind("memory: ", 0) == 0);
    return std::stod(o.text.substr(8));
  };
  const double grown = (3.0 * (2000.0 * 2000 - 1000.0 * 1000) + 2.0 * 4 * 1000) * 8 / (1 << 20);
  CHECK(memory_mib(2000) - memory_mib(1000) == Approx(grown).margin(0.11));
  const std::string big = "config " + cfg + " --resources --runs 1000 --threads ";
  const Output one = fbosim(big + "1"), two = fbosim(big + "2");
  REQUIRE(one.status == 0);
  REQUIRE(two.status == 0);
  CHECK(one.text.find("on 1 thread(s)") != std::string::npos);
  CHECK(two.text.find("on 2 thread(s)") != std::string::npos);
  CHECK(fbosim("config " + cfg + " --resources --threads 0").status == 2);
}

TEST_CASE("issue 29: the hyperparameter-sampling config runs, and its keys reach the run") {
  // configs/toolkit/gp_sampling.yaml, shortened; sample and optimise give other traces.
  const std::string cfg = std::string(FBOSIM_SOURCE_DIR) + "/configs/toolkit/gp_sampling.yaml";
  const auto out = std::filesystem::temp_directory_path() / "fbosim_gp_sampling_out";
  const auto opt = std::filesystem::temp_directory_path() / "fbosim_gp_sampling_opt";
  std::filesystem::remove_all(out);
  std::filesystem::remove_all(opt);
  const std::string args = " --quiet --set rounds=8 --set runs=1 --set gp.samples=20 --out ";
  const Output o = fbosim("run " + cfg + args + out.string() + " --set gp.mean=0.5");
  INFO(o.text);
  REQUIRE(o.status == 0);
  std::ifstream in((out / "config.resolved.yaml").string());
  const std::string resolved((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  CHECK(resolved.find("fit_method: sample") != std::string::npos);
  CHECK(resolved.find("mean: 0.5") != std::string::npos);
  const Output p = fbosim("run " + cfg + args + opt.string() +
                          " --set gp.mean=0.5 --set gp.fit_method=optimise");
  REQUIRE(p.status == 0);
  const auto slurp = [](const std::filesystem::path& f) {
    std::ifstream s(f.string());
    return std::string((std::istreambuf_iterator<char>(s)), std::istreambuf_iterator<char>());
  };
  CHECK(slurp(out / "trace.csv") != slurp(opt / "trace.csv"));
  CHECK(fbosim("run " + cfg + args + out.string() + " --set gp.fit_method=mcmc").status == 1);
  CHECK(fbosim("run " + cfg + args + out.string() + " --set gp.prior.noise_var_rate=0").status ==
        1);
  std::filesystem::remove_all(out);
  std::filesystem::remove_all(opt);
}

TEST_CASE("issue 29: the Matern-5/2 ARD config runs DP-FTS-DE, and FTS runs with Matern-3/2") {
  // configs/toolkit/matern.yaml, shortened; the resolved config records the kernel choice.
  const std::string cfg = std::string(FBOSIM_SOURCE_DIR) + "/configs/toolkit/matern.yaml";
  const auto out = std::filesystem::temp_directory_path() / "fbosim_matern_out";
  std::filesystem::remove_all(out);
  const Output o = fbosim("run " + cfg + " --quiet --threads 2 --set rounds=3 --set runs=1 --out " +
                          out.string());
  INFO(o.text);
  REQUIRE(o.status == 0);
  std::ifstream in((out / "config.resolved.yaml").string());
  const std::string resolved((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  CHECK(resolved.find("kernel: matern52") != std::string::npos);
  CHECK(resolved.find("ard: true") != std::string::npos);
  CHECK(std::filesystem::file_size(out / "summary.csv") > 0);
  // FTS (the target form) with Matern-3/2 features for its messages and its own steps.
  const std::string fts = write_temp(
      "fbosim_fts_matern.yaml",
      "algorithm: fts_target\nrounds: 3\nruns: 1\nobjective: {grid_points: 100}\n"
      "agents: {count: 3, init_points: 2}\nrff: {features: 20}\nlocal_ts: {features: 20}\n"
      "sources: {points: 5}\ngp: {kernel: matern32}\n");
  const auto fts_out = std::filesystem::temp_directory_path() / "fbosim_fts_matern_out";
  std::filesystem::remove_all(fts_out);
  const Output f = fbosim("run " + fts + " --quiet --out " + fts_out.string());
  INFO(f.text);
  CHECK(f.status == 0);
  std::filesystem::remove_all(out);
  std::filesystem::remove_all(fts_out);
}

TEST_CASE("fbosim privacy --agents N takes a run's default delta unless --delta-rule paper") {
  // min(1e-5, 1/(10 N)) = 1e-5 at N = 200 (1/(10 N) = 0.0005);
  // N^-1.1 = 200^-1.1 = 0.0029435 (by hand: exp(-1.1 x 5.29832)).
  const auto delta_of = [](const std::string& args) {
    const Output o = fbosim("privacy --q 0.25 --z 1 --steps 4 " + args + " --format csv");
    REQUIRE(o.status == 0);
    const std::vector<std::string> v = first_row(o.text);
    REQUIRE(v.size() == 8);
    return std::stod(v[5]);
  };
  CHECK(delta_of("--agents 200") == 1e-5);
  CHECK(delta_of("--agents 200 --delta-rule default") == 1e-5);
  CHECK(delta_of("--agents 200 --delta-rule paper") == Approx(0.0029435).epsilon(1e-4));
  CHECK(delta_of("--agents 1") == 1e-5);
  CHECK(delta_of("--delta 0.001") == 0.001);
  const Output both = fbosim("privacy --q 0.25 --z 1 --steps 4 --delta 0.001 --delta-rule paper");
  CHECK(both.status == 2);
  CHECK(both.text.find("--delta-rule") != std::string::npos);
  const Output one = fbosim("privacy --q 0.25 --z 1 --steps 4 --agents 1 --delta-rule paper");
  CHECK(one.status != 0);
  CHECK(one.text.find("--agents") != std::string::npos);
}
