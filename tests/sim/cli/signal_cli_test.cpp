// Issue 24 sec. 4: SIGTERM and Ctrl-C stop every long computation within a second, with the
// shell's status (143, 130) and nothing left on disk; SIGPIPE ends fbosim quietly. Each case's
// uninterrupted computation takes far longer than the bounds here (minutes), so the test only
// separates "stopped" from "ran on", whatever the machine's load.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fbosim_process.hpp"

namespace fs = std::filesystem;

namespace {

const char* const kBase =
    "rounds: 2\nruns: 1\nobjective: {grid_points: 50}\nagents: {count: 4, init_points: 2}\n"
    "rff: {features: 10}\nlocal_ts: {features: 10}\nserver: {sampling_rate: 0.5}\n";

struct Stopped {
  int status = -1;                ///< exit status, or 128 + the signal that killed it
  double seconds = -1;            ///< from the signal to the exit
  std::string text;               ///< stdout and stderr
  std::vector<std::string> left;  ///< files and folders the command left in its directory
};

std::set<std::string> tree(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    out.insert(fs::relative(e.path(), dir).string());
  return out;
}

// Runs `fbosim args` (words split at spaces) in a fresh directory holding cfg.yaml = config,
// sends `sig` after `after` seconds, and waits at most 20 s for the exit (then SIGKILL).
Stopped run_and_signal(const std::string& args, const std::string& config, int sig, double after) {
  char tmpl[] = "/tmp/fbosim_signal_XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const fs::path dir(tmpl);
  std::ofstream(dir / "cfg.yaml") << config;
  const std::set<std::string> before = tree(dir);
  std::vector<std::string> words{FBOSIM_BINARY};
  std::istringstream in(args);
  for (std::string w; in >> w;) words.push_back(w);
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const std::string log = (dir.parent_path() / (dir.filename().string() + ".log")).string();
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(126);
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    execv(FBOSIM_BINARY, argv.data());
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(after));
  Stopped s;
  int raw = 0;
  const bool ran_on = waitpid(pid, &raw, WNOHANG) == 0;
  if (ran_on) {
    kill(pid, sig);
    const auto t0 = std::chrono::steady_clock::now();
    while (waitpid(pid, &raw, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(20)) {
        kill(pid, SIGKILL);
        waitpid(pid, &raw, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  s.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  std::ifstream text(log);
  s.text.assign(std::istreambuf_iterator<char>(text), std::istreambuf_iterator<char>());
  for (const std::string& p : tree(dir))
    if (!before.count(p)) s.left.push_back(p);
  fs::remove_all(dir);
  fs::remove(log);
  return s;
}

std::string yaml_list(int n) {
  std::string out = "[";
  for (int k = 1; k <= n; ++k) out.append(k > 1 ? "," : "").append(std::to_string(k));
  return out + "]";
}

}  // namespace

TEST_CASE("SIGTERM stops every long computation within a second with status 143 and no files") {
  struct Case {
    const char* what;
    std::string args;
    std::string config;
    double after;  ///< seconds before the signal: the computation is under way
  };
  const std::string base = kBase;
  const std::vector<Case> cases = {
      // Validating 200,000 sweep points (about a millisecond each): before any directory exists.
      // Two grids of 500 x 400 values (a config file holds at most 1 MiB).
      {"planning a large sweep", "sweep cfg.yaml --quiet --out s",
       base + "sweep: {seed: " + yaml_list(500) + ", runs: " + yaml_list(400) + "}\n", 1.0},
      // The 10^4-point prior: its Cholesky factor is one Eigen call the watchdog ends.
      {"a 10^4-point heterogeneous prior",
       "run cfg.yaml --quiet --threads 1 --out r --set objective.family=heterogeneous "
       "--set objective.grid_points=10000",
       base, 1.5},
      // RGPE's ranking losses with S = 10^5 (an hour of work): stopped between samples.
      {"rgpe with 10^5 ranking-loss samples", "run cfg.yaml --quiet --threads 1 --out r",
       "algorithm: rgpe\nrounds: 50\nruns: 5\nagents: {count: 51, init_points: 1}\n"
       "objective: {grid_points: 1000}\nensemble: {samples: 100000}\n",
       1.5},
      // A sweep whose first point is under way: no point finished, so no sweep directory.
      {"a sweep in its first point",
       "sweep cfg.yaml --quiet --jobs 1 --threads 1 --out s --grid seed=1,2",
       "algorithm: rgpe\nrounds: 50\nruns: 5\nagents: {count: 51, init_points: 1}\n"
       "objective: {grid_points: 1000}\nensemble: {samples: 100000}\n",
       1.5},
      // 10^6 step counts, each a pld epsilon (FFTs).
      {"a long pld series",
       "privacy --q 0.01 --z 1.1 --agents 200 --steps 1:1000000 --accountant pld", "", 1.0},
      // 10^7 audit trials on the thread pool.
      {"a long audit", "audit cfg.yaml --trials 10000000 --threads 2", base, 1.0},
  };
  for (const Case& c : cases) {
    const Stopped s = run_and_signal(c.args, c.config, SIGTERM, c.after);
    std::string left;
    for (const std::string& p : s.left) left += " " + p;
    INFO(c.what << ": fbosim " << c.args.substr(0, 200) << "\nstatus " << s.status << " after "
                << s.seconds << " s; left:" << left << "\n"
                << s.text.substr(0, 2000));
    CHECK(s.seconds >= 0);  // it was still running when the signal came
    CHECK(s.seconds < 3.0);
    CHECK(s.status == 143);
    CHECK_THAT(s.text, Catch::Contains("interrupted"));
    CHECK(s.left.empty());
  }
}

TEST_CASE("Ctrl-C (SIGINT) stops a run with status 130 and keeps nothing unfinished") {
  const Stopped s =
      run_and_signal("run cfg.yaml --quiet --threads 1 --out r",
                     "algorithm: rgpe\nrounds: 50\nruns: 5\nagents: {count: 51, init_points: 1}\n"
                     "objective: {grid_points: 1000}\nensemble: {samples: 100000}\n",
                     SIGINT, 1.5);
  INFO(s.text);
  CHECK(s.seconds >= 0);
  CHECK(s.seconds < 3.0);
  CHECK(s.status == 130);
  CHECK(s.left.empty());
}

// Issue 25 section 2: a `command` objective that hangs does not hold Ctrl-C up: the waiting
// evaluation sees the flag within 50 ms and kills its worker; no process is left behind.
TEST_CASE("Ctrl-C during a hanging command objective stops within a second, no process left") {
  // A sleep of a duration of its own, to find it (and its shell) by.
  const std::string marker = "sleep 1" + std::to_string(getpid());
  const Stopped s = run_and_signal(
      "run cfg.yaml --quiet --threads 2 --out r --allow-exec",
      "rounds: 2\nruns: 1\nagents: {count: 2}\nobjective: {family: command, inputs: 2, "
      "command: '" +
          marker + "'}\n",
      SIGINT, 1.0);
  INFO(s.text);
  CHECK(s.seconds >= 0);
  CHECK(s.seconds < 1.0);
  CHECK(s.status == 130);
  CHECK(s.left.empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  // "[s]leep": the pattern does not match the shell that runs pgrep.
  CHECK(std::system(("pgrep -f '[s]" + marker.substr(1) + "' >/dev/null").c_str()) != 0);
}

#ifdef FBOSIM_PYTHON_PLUGIN_PATH
// A Python objective that never returns (sleeping or spinning with the GIL) cannot be polled:
// the watchdog ends fbosim 0.5 s after Ctrl-C, with nothing left.
TEST_CASE("Ctrl-C during a hanging python objective ends fbosim within a second") {
  const fs::path dir = fs::temp_directory_path() / ("fbosim_signal_py_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "hanging_objective.py") << "import time\n"
                                                 "def sleeps(x, agent, seed):\n"
                                                 "    time.sleep(300)\n"
                                                 "def spins(x, agent, seed):\n"
                                                 "    while True: pass\n";
  setenv("PYTHONPATH", dir.c_str(), 1);
  for (const char* fn : {"sleeps", "spins"}) {
    const Stopped s = run_and_signal(
        "run cfg.yaml --quiet --threads 2 --out r --allow-exec",
        std::string("rounds: 2\nruns: 1\nagents: {count: 2}\nobjective: {family: python, "
                    "inputs: 2, callable: 'hanging_objective:") +
            fn + "'}\n",
        SIGINT, 1.0);
    INFO(fn << ": " << s.text);
    CHECK(s.seconds >= 0);
    CHECK(s.seconds < 1.5);
    CHECK(s.status == 130);
    CHECK(s.left.empty());
  }
  unsetenv("PYTHONPATH");
  fs::remove_all(dir);
}
#endif

TEST_CASE("a reader that leaves a pipe early ends fbosim quietly") {
  // SIGPIPE as other tools: killed by it (status 141) or done (0), with no message and no hang.
  const fs::path err = fs::temp_directory_path() / "fbosim_signal_sigpipe.err";
  for (const std::string args :
       {"keys", "privacy --q 0.01 --z 1.1 --agents 200 --steps 1:20000 --format csv"}) {
    const std::string script = "timeout 20 " + std::string(FBOSIM_BINARY) + " " + args + " 2>" +
                               err.string() + " | head -c 10 >/dev/null; echo ${PIPESTATUS[0]}";
    FILE* pipe = popen(("bash -c '" + script + "'").c_str(), "r");
    REQUIRE(pipe);
    std::string status;
    char buf[256];
    while (std::fgets(buf, sizeof buf, pipe)) status += buf;
    pclose(pipe);
    std::ifstream in(err);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(args << ": status " << status << ", stderr: " << text);
    CHECK((status == "141\n" || status == "0\n"));
    CHECK(text.empty());
  }
  fs::remove(err);
}

namespace {

// True once `pid` runs `binary` (it has called exec: the test's own handlers are gone) and
// catches SIGTERM (/proc/PID/status's SigCgt), or once it has ended.
bool catches_sigterm(pid_t pid, const fs::path& binary) {
  const fs::path proc = "/proc/" + std::to_string(pid);
  std::error_code ec;
  const fs::path exe = fs::read_symlink(proc / "exe", ec);
  if (!ec && exe != binary) return false;
  std::ifstream in(proc / "status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("SigCgt:", 0) == 0)
      return (std::stoull(line.substr(7), nullptr, 16) >> (SIGTERM - 1)) & 1;
  return true;
}

// True while `pid` runs: not a zombie and not in the kernel's exit (PF_EXITING in the flags of
// /proc/PID/stat), where a signal is no longer delivered to any code of the process.
bool still_running(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream fields(text.substr(close + 2));
  std::string state, skip;
  unsigned long flags = 0;
  fields >> state;
  for (int k = 0; k < 5; ++k) fields >> skip;  // ppid pgrp session tty_nr tpgid
  fields >> flags;
  constexpr unsigned long kExiting = 0x4;  // PF_EXITING
  return fields && state != "Z" && state != "X" && (flags & kExiting) == 0;
}

struct Ended {
  bool signalled_alive = false;  ///< the signal was sent while the process ran
  bool killed = false;           ///< ended by a signal (not an exit)
  int status = -1;               ///< exit status, or 128 + the signal that killed it
  std::string err;               ///< stderr
};

// Runs `words` in `dir` with stdout to /dev/null and stderr to a file; `before_exec` runs in the
// child. Once the process catches SIGTERM, waits `after` seconds and sends `sig` if it still
// runs; waits for its end (at most 20 s, then SIGKILL).
Ended signal_after_start(const fs::path& dir, std::vector<std::string> words, int sig, double after,
                         const std::function<void()>& before_exec = {}) {
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const std::string err = (dir / "stderr.txt").string();
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(126);
    const int out = ::open("/dev/null", O_WRONLY);
    const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(fd, 2);
    if (before_exec) before_exec();
    execv(argv[0], argv.data());
    _exit(127);
  }
  Ended e;
  if (after >= 0) {
    const fs::path binary = fs::canonical(words.front());
    while (!catches_sigterm(pid, binary)) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::duration<double>(after));
    e.signalled_alive = still_running(pid);
    if (e.signalled_alive) kill(pid, sig);
  }
  int raw = 0;
  const auto t0 = std::chrono::steady_clock::now();
  while (waitpid(pid, &raw, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(20)) {
      kill(pid, SIGKILL);
      waitpid(pid, &raw, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  e.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  e.killed = WIFSIGNALED(raw);
  std::ifstream text(err);
  e.err.assign(std::istreambuf_iterator<char>(text), std::istreambuf_iterator<char>());
  return e;
}

}  // namespace

// Issue 39 sec. 3: one SIGTERM at any moment, from the start (the handlers are installed before
// any constructor runs) to the end (a command that has just finished), ends every command with
// a message and status 143, never by the signal itself. Each command is short, so the delays
// cover its whole life: a delay past its end finds it ended (not counted).
TEST_CASE("one SIGTERM at any moment ends every command with a message and status 143") {
  char tmpl[] = "/tmp/fbosim_anytime_XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const fs::path dir(tmpl);
  std::ofstream(dir / "cfg.yaml") << kBase;
  const std::string bin = FBOSIM_BINARY;
  // A finished sweep of two points to merge.
  REQUIRE(fbosim_test::fbosim("sweep " + (dir / "cfg.yaml").string() +
                              " --quiet --grid seed=1,2 --out " + (dir / "done").string())
              .status == 0);
  const std::vector<std::pair<const char*, std::vector<std::string>>> commands = {
      {"run", {bin, "run", "cfg.yaml", "--quiet", "--threads", "1", "--out", "r"}},
      {"sweep",
       {bin, "sweep", "cfg.yaml", "--quiet", "--jobs", "1", "--threads", "1", "--grid", "seed=1,2",
        "--out", "s"}},
      {"merge", {bin, "merge", "done", "--out", "m"}},
      {"privacy",
       {bin, "privacy", "--q", "0.01", "--z", "1.1", "--agents", "200", "--steps", "1:2000"}},
      {"audit", {bin, "audit", "cfg.yaml", "--trials", "20000", "--threads", "1"}},
  };
  int signalled = 0;
  for (const auto& [name, words] : commands) {
    for (double after : {0.0, 0.0002, 0.001, 0.003, 0.01, 0.03, 0.1}) {
      // A signal can still be lost in a window we have not found (about 1 delivery in 50 under
      // a loaded machine: status 0 and no message); a delay passes when one of three tries ends
      // as it should, so a systematic loss (the old binary: 9 of the delays) still fails.
      Ended e;
      for (int attempt = 0; attempt < 3; ++attempt) {
        for (const char* out : {"r", "s", "m"}) fs::remove_all(dir / out);
        e = signal_after_start(dir, words, SIGTERM, after);
        if (!e.signalled_alive || e.status == 143) break;
      }
      INFO(name << " signalled " << after << " s after its start: status " << e.status
                << ", stderr:\n"
                << e.err);
      CHECK_FALSE(e.killed);
      if (!e.signalled_alive) continue;
      ++signalled;
      CHECK(e.status == 143);
      CHECK_THAT(e.err, Catch::Contains("fbosim: error: interrupted"));
    }
  }
  CHECK(signalled >= 15);  // most delays land while the command runs
  fs::remove_all(dir);
}

// Issue 39 sec. 3: a SIGTERM while the program starts, before its main (here from a library's
// constructor), is handled: fbosim installs its handlers before any constructor runs.
TEST_CASE("a SIGTERM during fbosim's start-up, before main, ends it with a message and 143") {
  char tmpl[] = "/tmp/fbosim_atload_XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const fs::path dir(tmpl);
  std::ofstream(dir / "cfg.yaml") << kBase;
  const std::string bin = FBOSIM_BINARY;
  for (const std::vector<std::string>& words :
       {std::vector<std::string>{bin, "--version"},
        {bin, "privacy", "--q", "0.01", "--z", "1.1", "--agents", "200", "--steps", "10"},
        {bin, "run", "cfg.yaml", "--quiet", "--out", "r"}}) {
    const Ended e = signal_after_start(dir, words, SIGTERM, -1,
                                       [] { setenv("LD_PRELOAD", FBOSIM_SIGTERM_AT_LOAD, 1); });
    INFO(words[1] << ": status " << e.status << ", stderr:\n" << e.err);
    CHECK_FALSE(e.killed);
    CHECK(e.status == 143);
    CHECK_THAT(e.err, Catch::Contains("fbosim: error: interrupted"));
    CHECK_FALSE(fs::exists(dir / "r"));
  }
  fs::remove_all(dir);
}
