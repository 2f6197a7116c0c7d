// Resume and concurrency (issue #24, section 3), as a user meets them: two processes writing
// one output directory, a .lock left by a SIGKILL, and checkpoints that do not verify.
#include <catch2/catch.hpp>

#include "fbosim_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {
using fbosim_test::fbosim;
using fbosim_test::Output;
using fbosim_test::write_temp;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const char* kTiny =
    "rounds: 3\nruns: 3\nobjective: {grid_points: 100}\nagents: {count: 4, init_points: 2}\n"
    "rff: {features: 10}\nlocal_ts: {features: 10}\n";
// A few tenths of a second: long enough to be caught holding its lock.
const char* kSlower =
    "rounds: 25\nruns: 6\nobjective: {grid_points: 200}\nagents: {count: 12, init_points: 2}\n"
    "rff: {features: 40}\nlocal_ts: {features: 40}\n";

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path fresh(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("fbosim_resumecli_" + name);
  fs::remove_all(p);
  return p;
}

void check_same_outputs(const fs::path& a, const fs::path& b) {
  for (const char* f : {"trace.csv", "server.csv", "summary.csv", "config.resolved.yaml"}) {
    INFO(f);
    CHECK(slurp(a / f) == slurp(b / f));
  }
}

// `fbosim ARGS...` in the background (output discarded).
pid_t spawn(const std::vector<std::string>& args) {
  std::vector<char*> argv{const_cast<char*>(FBOSIM_BINARY)};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(FBOSIM_BINARY, argv.data());
    _exit(127);
  }
  return pid;
}

// `fbosim run CFG --quiet --threads 1 --out OUT` in the background.
pid_t spawn_run(const std::string& cfg, const fs::path& out) {
  return spawn({"run", cfg, "--quiet", "--threads", "1", "--out", out.string()});
}

// Waits until `pid` holds OUT/.lock (its pid is written there once it holds the flock); false
// if the process ended first.
bool wait_for_lock(const fs::path& out, pid_t pid) {
  const std::string mine = std::to_string(pid) + "\n";
  const auto t0 = Clock::now();
  while (Clock::now() - t0 < std::chrono::seconds(30)) {
    if (slurp(out / ".lock").rfind(mine, 0) == 0) return true;
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return false;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
}  // namespace

TEST_CASE("a second process writing into a run's --out is refused at once, naming it") {
  const std::string cfg = write_temp("fbosim_resumecli_slow.yaml", kSlower);
  const fs::path whole = fresh("lock_whole"), shard = fresh("lock_shard");
  REQUIRE(fbosim("run " + cfg + " --quiet --threads 1 --out " + whole.string()).status == 0);
  REQUIRE(fbosim("sweep " + cfg + " --quiet --set runs=1 --set rounds=2 --grid seed=1,2 --out " +
                 shard.string())
              .status == 0);
  // Several trials: a race would show in one of them.
  for (int trial = 0; trial < 3; ++trial) {
    const fs::path out = fresh("lock");
    const pid_t first = spawn_run(cfg, out);
    REQUIRE(wait_for_lock(out, first));
    kill(first, SIGSTOP);  // holds the lock for as long as the test needs
    const std::string holder = out.string() + " is in use by another fbosim process (pid " +
                               std::to_string(first) + ": " + FBOSIM_BINARY + " run " + cfg;
    for (const std::string& second :
         {"run " + cfg + " --quiet --out " + out.string(),
          "run " + cfg + " --quiet --force --out " + out.string(),
          "run " + cfg + " --quiet --set seed=3 --out " + out.string(),
          "sweep " + cfg + " --quiet --grid seed=1,2 --out " + out.string(),
          "merge " + shard.string() + " --out " + out.string()}) {
      INFO("trial " << trial << ": fbosim " << second);
      const auto t0 = Clock::now();
      const Output o = fbosim(second);
      INFO(o.text);
      CHECK(o.status == 1);
      CHECK(o.text.find(holder) != std::string::npos);
      CHECK(Clock::now() - t0 < std::chrono::seconds(10));  // at once, not after the first
    }
    kill(first, SIGCONT);
    CHECK(wait_exit(first) == 0);
    check_same_outputs(out, whole);
    CHECK_FALSE(fs::exists(out / ".lock"));
    CHECK_FALSE(fs::exists(out / "sweep.csv"));
  }
}

TEST_CASE("a sweep's directory is locked against a run, and a SIGKILL leaves no stale lock") {
  const std::string cfg = write_temp("fbosim_resumecli_stale.yaml", kSlower);
  const fs::path whole = fresh("stale_whole"), out = fresh("stale");
  REQUIRE(fbosim("run " + cfg + " --quiet --threads 1 --out " + whole.string()).status == 0);
  const pid_t first = spawn_run(cfg, out);
  REQUIRE(wait_for_lock(out, first));
  kill(first, SIGKILL);
  CHECK(wait_exit(first) == 128 + SIGKILL);
  REQUIRE(slurp(out / ".lock").rfind(std::to_string(first) + "\n", 0) == 0);  // left behind
  // The kernel dropped the dead process's flock: the next run takes the directory over at once.
  const Output o = fbosim("run " + cfg + " --quiet --threads 1 --out " + out.string());
  INFO(o.text);
  CHECK(o.status == 0);
  check_same_outputs(out, whole);
  CHECK_FALSE(fs::exists(out / ".lock"));

  // A sweep holds its directory likewise: a run into it is refused, naming the sweep.
  const fs::path swept = fresh("stale_sweep");
  const pid_t sweeping = spawn(
      {"sweep", cfg, "--quiet", "--jobs", "1", "--grid", "seed=1,2", "--out", swept.string()});
  REQUIRE(wait_for_lock(swept, sweeping));
  kill(sweeping, SIGSTOP);
  const Output run = fbosim("run " + cfg + " --quiet --out " + swept.string());
  INFO(run.text);
  CHECK(run.status == 1);
  CHECK(run.text.find(swept.string() + " is in use by another fbosim process (pid " +
                      std::to_string(sweeping) + ": " + FBOSIM_BINARY + " sweep " + cfg) !=
        std::string::npos);
  kill(sweeping, SIGCONT);
  CHECK(wait_exit(sweeping) == 0);
  CHECK(fs::exists(swept / "sweep.csv"));
  CHECK_FALSE(fs::exists(swept / "trace.csv"));
}

TEST_CASE("checkpoints that do not verify are re-run with a line saying why") {
  const std::string cfg = write_temp("fbosim_resumecli_tiny.yaml", kTiny);
  const fs::path whole = fresh("ckpt_whole");
  REQUIRE(fbosim("run " + cfg + " --quiet --threads 1 --out " + whole.string()).status == 0);
  const std::string partial = ".fbosim-partial";
  struct Fault {
    const char* name;
    std::function<void(const fs::path& dir)> apply;  ///< on OUT/.fbosim-partial
    std::string said;
    int reused;  ///< runs reused by the resume
  };
  const auto edit = [](const fs::path& f, const std::function<void(std::string&)>& change) {
    std::string text = slurp(f);
    change(text);
    std::ofstream(f, std::ios::binary | std::ios::trunc) << text;
  };
  // The first digit after `marker` (a line of the checkpoint), plus one.
  const auto bump_digit_after = [](std::string& text, const std::string& marker) {
    auto at = text.find(marker);
    REQUIRE(at != std::string::npos);
    at = text.find_first_of("0123456789", at + marker.size());
    text[at] = text[at] == '9' ? '0' : static_cast<char>(text[at] + 1);
  };
  const std::vector<Fault> faults = {
      {"a digit of a trace row",
       [&](const fs::path& d) {
         edit(d / "run-1.ckpt", [&](std::string& t) { bump_digit_after(t, "\ntrace "); });
       },
       "run-1.ckpt: its content does not match its SHA-256 (edited or corrupt): running run 1 "
       "again",
       1},
      {"a digit of a server row",
       [&](const fs::path& d) {
         edit(d / "run-1.ckpt", [&](std::string& t) { bump_digit_after(t, "\nserver 3\n0 "); });
       },
       "run-1.ckpt: its content does not match its SHA-256", 1},
      {"run 0's checkpoint over run 1's",
       [](const fs::path& d) {
         fs::copy_file(d / "run-0.ckpt", d / "run-1.ckpt", fs::copy_options::overwrite_existing);
       },
       "run-1.ckpt: it holds run 0, not run 1: running run 1 again", 1},
      {"a header claiming 10^12 bytes",
       [&](const fs::path& d) {
         edit(d / "run-0.ckpt", [](std::string& t) {
           const auto at = t.find(" bytes ") + 7;
           t.replace(at, t.find(' ', at) - at, "1000000000000");
         });
       },
       "run-0.ckpt: truncated: ", 1},
      {"a truncated checkpoint",
       [&](const fs::path& d) {
         edit(d / "run-0.ckpt", [](std::string& t) { t.resize(t.size() / 2); });
       },
       "run-0.ckpt: truncated: ", 1},
      {"another format version",
       [&](const fs::path& d) {
         edit(d / "run-1.ckpt", [](std::string& t) { t.replace(t.find(" 5 "), 3, " 4 "); });
       },
       "run-1.ckpt: checkpoint format version 4, this build reads version 5", 1},
      {"a FIFO where a checkpoint would be (reading it would block)",
       [](const fs::path& d) {
         fs::remove(d / "run-1.ckpt");
         REQUIRE(mkfifo((d / "run-1.ckpt").c_str(), 0644) == 0);
       },
       "run-1.ckpt: not a regular file: running run 1 again", 1},
      {"the checkpoint folder as a file",
       [](const fs::path& d) {
         fs::remove_all(d);
         std::ofstream(d) << "x";
       },
       "a file that is not a directory where fbosim keeps its checkpoints", 0},
      {"the checkpoint folder as a link",
       [](const fs::path& d) {
         const fs::path target = d.parent_path().string() + "_target";
         fs::remove_all(target);
         fs::rename(d, target);
         fs::create_directory_symlink(target, d);
       },
       "a symbolic link where fbosim keeps its checkpoints", 0},
  };
  for (const Fault& f : faults) {
    INFO(f.name);
    const fs::path out = fresh("ckpt");
    const Output stopped =
        fbosim_test::fbosim_stopped_after(2, "run " + cfg + " --quiet --out " + out.string());
    REQUIRE(stopped.status == 130);
    REQUIRE(fs::exists(out / partial / "run-1.ckpt"));
    f.apply(out / partial);
    const Output resumed = fbosim("run " + cfg + " --quiet --threads 2 --out " + out.string());
    INFO(resumed.text);
    CHECK(resumed.status == 0);
    CHECK(resumed.text.find(f.said) != std::string::npos);
    check_same_outputs(out, whole);
    CHECK(slurp(out / "provenance.yaml").find("resumed_runs: " + std::to_string(f.reused)) !=
          std::string::npos);
    CHECK_FALSE(fs::exists(fs::symlink_status(out / partial)));
  }
}
