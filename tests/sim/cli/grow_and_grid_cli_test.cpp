// Issue 28, section 2: an experiment or a sweep grown with more runs reuses the finished runs
// and equals a fresh one byte for byte; one sweep can vary the algorithm; Ctrl-C during a sweep
// keeps the rows of its finished points in sweep.csv.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fbosim_process.hpp"

namespace fs = std::filesystem;
using fbosim_test::fbosim;
using fbosim_test::Output;

namespace {

// A tiny DP-FTS-DE experiment (P = 2, explicit server.dp) with a sweep section of two points.
const char* const kTiny =
    "algorithm: dp_fts_de\nrounds: 3\nruns: 2\nobjective: {grid_points: 100}\n"
    "agents: {count: 4, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 10}\nlocal_ts: {features: 10}\n"
    "server: {dp: true, sampling_rate: 0.5, accountants: rdp}\n";

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fbosim_i28_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The CSV without its `seconds` column (wall time, the only column that may differ).
std::string without_seconds(const std::string& csv) {
  std::istringstream in(csv);
  std::string line, out;
  int drop = -1;
  for (bool header = true; std::getline(in, line); header = false) {
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell += c;
      }
    }
    cells.push_back(cell);
    if (header)
      for (std::size_t k = 0; k < cells.size(); ++k)
        if (cells[k] == "seconds") drop = static_cast<int>(k);
    for (std::size_t k = 0; k < cells.size(); ++k)
      if (static_cast<int>(k) != drop) out += cells[k] + ",";
    out += "\n";
  }
  return out;
}

void same_results(const fs::path& a, const fs::path& b) {
  for (const char* f : {"trace.csv", "server.csv", "summary.csv", "config.resolved.yaml"}) {
    INFO(a / f << " against " << b / f);
    REQUIRE(fs::exists(a / f));
    CHECK(read(a / f) == read(b / f));
  }
}

}  // namespace

TEST_CASE("issue 28: --runs 4 after a finished --runs 2 reuses runs 0-1, equal to a fresh run") {
  const fs::path d = fresh_dir("grow_run");
  std::ofstream(d / "cfg.yaml") << kTiny;
  const std::string cfg = (d / "cfg.yaml").string();
  const std::string common = " --seed 5 --threads 1 --out ";
  REQUIRE(fbosim("run " + cfg + " --quiet --runs 2" + common + (d / "grown").string()).status == 0);
  const Output grow = fbosim("run " + cfg + " --runs 4" + common + (d / "grown").string());
  INFO(grow.text);
  REQUIRE(grow.status == 0);
  CHECK_THAT(grow.text, Catch::Contains("grown: runs 0-1 reused"));
  REQUIRE(fbosim("run " + cfg + " --quiet --runs 4" + common + (d / "fresh").string()).status == 0);
  same_results(d / "grown", d / "fresh");
  CHECK_THAT(read(d / "grown" / "provenance.yaml"), Catch::Contains("resumed_runs: 2"));
  // Fewer runs reuse a prefix; more again reuse the 3 kept, still equal to a fresh run.
  REQUIRE(fbosim("run " + cfg + " --quiet --runs 3" + common + (d / "grown").string()).status == 0);
  REQUIRE(fbosim("run " + cfg + " --quiet --runs 3" + common + (d / "fresh3").string()).status ==
          0);
  same_results(d / "grown", d / "fresh3");
  CHECK_FALSE(fs::exists(d / "grown" / ".fbosim-runs" / "run-3.ckpt"));
  // Rows edited since: that run and the later ones are computed again, saying so.
  std::string trace = read(d / "grown" / "trace.csv");
  const std::size_t at = trace.find("\n1,");
  REQUIRE(at != std::string::npos);
  trace[at + 3] = trace[at + 3] == '0' ? '1' : '0';
  std::ofstream(d / "grown" / "trace.csv", std::ios::binary) << trace;
  const Output again = fbosim("run " + cfg + " --runs 4" + common + (d / "grown").string());
  INFO(again.text);
  REQUIRE(again.status == 0);
  CHECK_THAT(again.text, Catch::Contains("run 1's rows of trace.csv changed") &&
                             Catch::Contains("grown: runs 0-0 reused"));
  same_results(d / "grown", d / "fresh");
  // Another config is still refused (only the number of runs may differ).
  const Output other =
      fbosim("run " + cfg + " --quiet --runs 4 --set rounds=4" + common + (d / "grown").string());
  CHECK(other.status == 1);
  CHECK_THAT(other.text, Catch::Contains("rounds: 3 there, 4 here"));
  fs::remove_all(d);
}

// Per-agent ledgers (an asynchronous schedule; a trust model under rounds): the kept runs keep
// their agents.csv rows and the spread columns. A finished run run again used to stop with
// "vector::_M_range_check" (the records lacked epsilon_median), and agents.csv lost its rows.
TEST_CASE("a run with per-agent ledgers grown with --runs equals a fresh run, agents.csv too") {
  for (const std::string& extra :
       {std::string("schedule: {kind: buffered, buffer: 2}\n"),
        std::string("server: {dp: true, sampling_rate: 0.5, accountants: rdp, trust: "
                    "distributed}\n")}) {
    INFO(extra);
    const fs::path d = fresh_dir("grow_agents");
    std::string text = kTiny;
    if (extra.rfind("server:", 0) == 0) text = text.substr(0, text.find("server:"));
    std::ofstream(d / "cfg.yaml") << text << extra;
    const std::string cfg = (d / "cfg.yaml").string();
    const std::string common = " --seed 5 --threads 1 --quiet --out ";
    REQUIRE(fbosim("run " + cfg + " --runs 2" + common + (d / "grown").string()).status == 0);
    const Output again = fbosim("run " + cfg + " --runs 2" + common + (d / "grown").string());
    INFO(again.text);
    REQUIRE(again.status == 0);
    const Output grow = fbosim("run " + cfg + " --runs 4" + common + (d / "grown").string());
    INFO(grow.text);
    REQUIRE(grow.status == 0);
    REQUIRE(fbosim("run " + cfg + " --runs 4" + common + (d / "fresh").string()).status == 0);
    same_results(d / "grown", d / "fresh");
    REQUIRE(fs::exists(d / "fresh" / "agents.csv"));
    CHECK(read(d / "grown" / "agents.csv") == read(d / "fresh" / "agents.csv"));
    CHECK_THAT(read(d / "grown" / "provenance.yaml"), Catch::Contains("resumed_runs: 2"));
    if (fs::exists(d / "fresh" / "summary_time.csv"))
      CHECK(read(d / "grown" / "summary_time.csv") == read(d / "fresh" / "summary_time.csv"));
    fs::remove_all(d);
  }
}

TEST_CASE("issue 28: a sweep grown with --runs equals a fresh sweep of as many runs") {
  const fs::path d = fresh_dir("grow_sweep");
  std::ofstream(d / "cfg.yaml") << kTiny;
  const std::string cfg = (d / "cfg.yaml").string();
  const std::string grid = " --grid server.noise_multiplier=1,2 --jobs 2 --threads 1 --quiet";
  REQUIRE(fbosim("sweep " + cfg + grid + " --runs 2 --out " + (d / "grown").string()).status == 0);
  const Output grow = fbosim("sweep " + cfg + grid + " --runs 3 --out " + (d / "grown").string());
  INFO(grow.text);
  REQUIRE(grow.status == 0);
  REQUIRE(fbosim("sweep " + cfg + grid + " --runs 3 --out " + (d / "fresh").string()).status == 0);
  for (const char* p : {"server.noise_multiplier=1", "server.noise_multiplier=2"})
    same_results(d / "grown" / p, d / "fresh" / p);
  CHECK(without_seconds(read(d / "grown" / "sweep.csv")) ==
        without_seconds(read(d / "fresh" / "sweep.csv")));
  fs::remove_all(d);
}

TEST_CASE("issue 28: one sweep varies the algorithm, each point its paper's algorithm") {
  const fs::path d = fresh_dir("algorithm_grid");
  std::ofstream(d / "cfg.yaml") << kTiny;
  const std::string cfg = (d / "cfg.yaml").string();
  const Output o = fbosim("sweep " + cfg + " --grid algorithm=ts,fts,fts_de,dp_fts_de --jobs 2 " +
                          "--threads 1 --quiet --out " + (d / "s").string());
  INFO(o.text);
  REQUIRE(o.status == 0);
  // The config's server.dp: true and P = 2 are replaced where the name says otherwise, with a
  // note naming the point, the key and both values.
  CHECK_THAT(o.text,
             Catch::Contains("point algorithm=fts: server.dp: false (the config's true "
                             "contradicts algorithm fts, which runs without DP)") &&
                 Catch::Contains("point algorithm=fts: exploration.subregions: 1 (the config's 2 "
                                 "contradicts algorithm fts, which has P = 1)") &&
                 Catch::Contains("point algorithm=fts_de: server.dp: false"));
  CHECK(o.text.find("point algorithm=dp_fts_de:") == std::string::npos);
  CHECK(o.text.find("point algorithm=ts:") == std::string::npos);
  const std::string sweep = read(d / "s" / "sweep.csv");
  CHECK(std::count(sweep.begin(), sweep.end(), '\n') == 5);
  // Each point equals the single experiment of its algorithm written as a plain config would.
  const std::pair<const char*, const char*> single[] = {
      {"ts", "--set algorithm=ts"},
      {"fts", "--set algorithm=fts --set server.dp=false --set exploration.subregions=1"},
      {"fts_de", "--set algorithm=fts_de --set server.dp=false"},
      {"dp_fts_de", ""}};
  for (const auto& [name, sets] : single) {
    const fs::path out = d / (std::string("single_") + name);
    REQUIRE(
        fbosim("run " + cfg + " --quiet --threads 1 " + sets + " --out " + out.string()).status ==
        0);
    const fs::path point = d / "s" / (std::string("algorithm=") + name);
    for (const char* f : {"trace.csv", "server.csv", "summary.csv"}) {
      INFO(point / f);
      CHECK(read(point / f) == read(out / f));
    }
  }
  // Private points have epsilon, the others none.
  CHECK_THAT(read(d / "s" / "algorithm=fts" / "config.resolved.yaml"),
             Catch::Contains("dp: false") && Catch::Contains("subregions: 1"));
  // A key the point's algorithm does not read at all stays an error naming point and key.
  const Output cross = fbosim("sweep " + cfg + " --grid algorithm=dp_fts_de,fts_target --quiet " +
                              "--out " + (d / "x").string());
  CHECK(cross.status == 1);
  CHECK_THAT(cross.text, Catch::Contains("sweep point algorithm=fts_target") &&
                             Catch::Contains("exploration.subregions"));
  CHECK_FALSE(fs::exists(d / "x"));
  // A grid that contradicts itself (its own server.dp values) is an error, not replaced.
  const Output self = fbosim("sweep " + cfg + " --grid algorithm=fts_de --grid server.dp=true " +
                             "--quiet --out " + (d / "y").string());
  CHECK(self.status == 1);
  CHECK_THAT(self.text, Catch::Contains("use algorithm dp_fts_de"));
  fs::remove_all(d);
}

TEST_CASE("issue 28: Ctrl-C during a sweep keeps the rows of its finished points in sweep.csv") {
  const fs::path d = fresh_dir("sigint_sweep");
  // Point 0 takes a moment; point 1 minutes (100000 rounds).
  std::ofstream(d / "cfg.yaml") << kTiny;
  std::vector<std::string> words = {
      FBOSIM_BINARY, "sweep", "cfg.yaml", "--grid", "rounds=2,100000", "--jobs", "1",
      "--threads",   "1",     "--runs",   "1",      "--out",           "s"};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const std::string log = (d / "log").string();
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (chdir(d.c_str()) != 0) _exit(126);
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    execv(FBOSIM_BINARY, argv.data());
    _exit(127);
  }
  // Point 0's row reaches sweep.csv within a second of its end, while point 1 runs.
  const auto t0 = std::chrono::steady_clock::now();
  int raw = 0;
  bool exited = false;
  while (!fs::exists(d / "s" / "sweep.csv") &&
         std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60)) {
    if (waitpid(pid, &raw, WNOHANG) != 0) {
      exited = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE_FALSE(exited);
  REQUIRE(fs::exists(d / "s" / "sweep.csv"));
  kill(pid, SIGINT);
  const auto t1 = std::chrono::steady_clock::now();
  while (waitpid(pid, &raw, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() - t1 > std::chrono::seconds(20)) {
      kill(pid, SIGKILL);
      waitpid(pid, &raw, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  INFO(read(log));
  CHECK(status == 130);
  CHECK(seconds < 3.0);
  CHECK_THAT(read(log), Catch::Contains("1 of 2 points finished"));
  const std::string sweep = read(d / "s" / "sweep.csv");
  INFO(sweep);
  CHECK(std::count(sweep.begin(), sweep.end(), '\n') == 2);
  CHECK_THAT(sweep, Catch::Contains("\n0,2,"));
  CHECK_FALSE(fs::exists(d / "s" / "rounds=100000" / "summary.csv"));
  fs::remove_all(d);
}
