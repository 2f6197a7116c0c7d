// Issue 24 sec. 4: a write error on stdout (a full device, a closed stdout) is an error of every
// command, with a message on stderr and a non-zero exit; a closed stdout never makes fbosim write
// its summary into one of its own files.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fbosim_process.hpp"

namespace fs = std::filesystem;

namespace {

const char* const kTiny =
    "rounds: 2\nruns: 1\nobjective: {grid_points: 50}\nagents: {count: 4, init_points: 2}\n"
    "rff: {features: 10}\nlocal_ts: {features: 10}\nserver: {sampling_rate: 0.5}\n";

struct Result {
  int status;
  std::string err;  ///< stderr
};

// `fbosim args` in `dir` with stdout redirected by `redirect` (shell words) and stderr captured.
Result run_redirected(const fs::path& dir, const std::string& args, const std::string& redirect) {
  // stderr reaches the pipe (2>&1 first), then stdout goes where `redirect` says.
  const std::string cmd =
      "cd '" + dir.string() + "' && timeout 60 " + FBOSIM_BINARY + " " + args + " 2>&1 " + redirect;
  FILE* pipe = popen(("sh -c \"" + cmd + "\"").c_str(), "r");
  REQUIRE(pipe);
  std::string text;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) text += buf;
  const int raw = pclose(pipe);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw), text};
}

}  // namespace

TEST_CASE("every command exits non-zero when its output cannot be written") {
  const fs::path dir = fs::temp_directory_path() / "fbosim_output_error";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "cfg.yaml") << kTiny;
  // A finished sweep to merge.
  REQUIRE(
      run_redirected(dir, "sweep cfg.yaml --quiet --grid seed=1,2 --out sw", ">/dev/null").status ==
      0);
  const std::vector<std::string> commands = {
      "--version",
      "--help",
      "run --help",
      "keys",
      "config cfg.yaml",
      "privacy --q 0.1 --z 1 --agents 100 --steps 10",
      "privacy --q 0.1 --z 1 --agents 100 --steps 1:2000 --format csv",
      "run cfg.yaml --out r --force",
      "sweep cfg.yaml --grid seed=1,2 --out s --force",
      "merge sw --out m",
      "audit cfg.yaml --trials 100",
      "bench --case synthetic --repeats 1 --threads 1 --set rounds=1 --set agents.count=4 "
      "--set local_ts.features=10 --set rff.features=10",
  };
  for (const std::string& c : commands) {
    for (const char* redirect : {">/dev/full", ">&-"}) {
      const Result r = run_redirected(dir, c, redirect);
      INFO("fbosim " << c << " " << redirect << ": status " << r.status << "\n" << r.err);
      CHECK(r.status == 1);
      CHECK_THAT(r.err, Catch::Contains("fbosim: error: cannot write to standard output"));
    }
  }
  // The same commands with a working stdout succeed (the failure above is the output's).
  CHECK(run_redirected(dir, "keys", ">/dev/null").status == 0);
  // With stdout closed, the run's own files hold no summary line.
  for (const char* f : {"trace.csv", "server.csv", "summary.csv", "timing.csv"}) {
    std::ifstream in(dir / "r" / f);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(f);
    CHECK(text.find("final simple regret") == std::string::npos);
  }
  fs::remove_all(dir);
}

TEST_CASE("a failed write to stderr makes a successful command exit non-zero") {
  // The progress lines and warnings go to stderr: losing them silently is not a success.
  const fs::path dir = fs::temp_directory_path() / "fbosim_stderr_error";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "cfg.yaml") << kTiny;
  const std::string sweep = "cd '" + dir.string() + "' && " + FBOSIM_BINARY +
                            " sweep cfg.yaml --grid seed=1,2 --out s --force >/dev/null";
  const int ok = std::system((sweep + " 2>/dev/null").c_str());
  CHECK(WIFEXITED(ok));
  CHECK(WEXITSTATUS(ok) == 0);
  const int full = std::system((sweep + " 2>/dev/full").c_str());
  CHECK(WIFEXITED(full));
  CHECK(WEXITSTATUS(full) == 1);
  // An error's own status is kept (2: a usage error) when its message cannot be written.
  const int bad = std::system(
      (std::string(FBOSIM_BINARY) + " privacy --q 2 --z 1 --agents 100 --steps 10 2>/dev/full")
          .c_str());
  CHECK(WIFEXITED(bad));
  CHECK(WEXITSTATUS(bad) == 2);
  fs::remove_all(dir);
}

TEST_CASE("too many open files fails before the runs, naming the file, and leaves nothing") {
  const fs::path dir = fs::temp_directory_path() / "fbosim_nofile";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "cfg.yaml") << kTiny;
  // Every output is opened before the first run: the limit is met there, not after the work.
  const std::string cmd = "sh -c \"cd '" + dir.string() + "' && ulimit -n 8 && exec " +
                          FBOSIM_BINARY + " run cfg.yaml --quiet --out r\" 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe);
  std::string text;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) text += buf;
  const int raw = pclose(pipe);
  INFO(text);
  CHECK(WIFEXITED(raw));
  CHECK(WEXITSTATUS(raw) == 1);
  CHECK_THAT(text, Catch::Contains("cannot write r/") && Catch::Contains("Too many open files"));
  CHECK_FALSE(fs::exists(dir / "r"));
  fs::remove_all(dir);
}
