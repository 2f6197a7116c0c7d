// Provenance and no stale or replaced results (issue #10): --version, refusing to replace
// another config's results, resume after an interruption or a SIGKILL, no leftovers.
#include <catch2/catch.hpp>

#include "fbosim_process.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace {
using fbosim_test::fbosim;
using fbosim_test::fbosim_stopped_after;
using fbosim_test::Output;
using fbosim_test::write_temp;
namespace fs = std::filesystem;

const char* kTiny =
    "rounds: 3\nruns: 3\nobjective: {grid_points: 100}\nagents: {count: 4, init_points: 2}\n"
    "rff: {features: 10}\nlocal_ts: {features: 10}\n"
    "sweep:\n  server.noise_multiplier: [1, 2]\n";

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path fresh(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("fbosim_provcli_" + name);
  fs::remove_all(p);
  return p;
}

// stdout of a shell command (git, for an independent view of the source tree).
std::string shell(const std::string& cmd) {
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) out += buf;
  pclose(pipe);
  return out;
}

void check_same_outputs(const fs::path& a, const fs::path& b) {
  for (const char* f : {"trace.csv", "server.csv", "summary.csv", "config.resolved.yaml"}) {
    INFO(f);
    CHECK(slurp(a / f) == slurp(b / f));
  }
}

// A sweep.csv without its wall-time column (fields without commas here).
std::string without_seconds(const std::string& csv) {
  std::stringstream in(csv);
  std::string line, out;
  int skip = -1;
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    int k = 0;
    for (std::string c; std::getline(cells, c, ','); ++k) {
      if (skip < 0 && c == "seconds") skip = k;
      if (k != skip) out += c + ",";
    }
    out += "\n";
  }
  return out;
}

bool any_tmp(const fs::path& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().extension() == ".tmp") return true;
  return false;
}
}  // namespace

TEST_CASE("fbosim --version names the commit of the build and whether the tree was modified") {
  const Output o = fbosim("--version");
  INFO(o.text);
  REQUIRE(o.status == 0);
  const std::string src = FBOSIM_SOURCE_DIR;
  std::string head = shell("git -C '" + src + "' rev-parse HEAD 2>/dev/null");
  if (head.empty()) {  // a tarball: the commit is unknown, and said so
    CHECK(o.text.find("commit unknown") != std::string::npos);
    return;
  }
  head = head.substr(0, 12);
  CHECK(o.text.rfind("fbosim 0.1.0 (commit " + head, 0) == 0);
  // Only the program's inputs count (cmake/build_info.cmake, issue 28).
  const bool modified = !shell("git -C '" + src +
                               "' status --porcelain --untracked-files=all -- CMakeLists.txt "
                               "cmake sim algorithms datasets python")
                             .empty();
  CHECK((o.text.find(", modified") != std::string::npos) == modified);
}

TEST_CASE("fbosim run refuses to replace another config's results without --force") {
  const std::string cfg = write_temp("fbosim_provcli_106.yaml", kTiny);
  const fs::path out = fresh("clash");
  REQUIRE(fbosim("run " + cfg + " --quiet --out " + out.string()).status == 0);
  const std::string before = slurp(out / "summary.csv");
  const Output o =
      fbosim("run " + cfg + " --quiet --set server.noise_multiplier=2 --out " + out.string());
  INFO(o.text);
  CHECK(o.status != 0);
  CHECK(o.text.find("server.noise_multiplier: 1 there, 2 here") != std::string::npos);
  CHECK(o.text.find("--force") != std::string::npos);
  CHECK(slurp(out / "summary.csv") == before);
  CHECK(fbosim("run " + cfg + " --quiet --out " + out.string()).status == 0);  // a re-run
  CHECK(fbosim("run " + cfg + " --quiet --force --set server.noise_multiplier=2 --out " +
               out.string())
            .status == 0);
  CHECK(slurp(out / "summary.csv") != before);
  // The record names the build and the command line that made these results.
  const std::string record = slurp(out / "provenance.yaml");
  CHECK(record.find("--force --set server.noise_multiplier=2") != std::string::npos);
  CHECK(record.find("threads: ") != std::string::npos);
}

TEST_CASE("fbosim run resumes after an interruption to byte-identical outputs") {
  const std::string cfg = write_temp("fbosim_provcli_129.yaml", kTiny);
  const fs::path whole = fresh("whole"), out = fresh("resume");
  REQUIRE(fbosim("run " + cfg + " --quiet --threads 1 --out " + whole.string()).status == 0);
  const Output stopped =
      fbosim_stopped_after(1, "run " + cfg + " --quiet --threads 2 --out " + out.string());
  INFO(stopped.text);
  CHECK(stopped.status == 130);  // Ctrl-C's status
  CHECK(stopped.text.find("1 of 3 runs finished") != std::string::npos);
  CHECK(stopped.text.find("run the same command again to resume") != std::string::npos);
  CHECK_FALSE(fs::exists(out / "summary.csv"));
  const Output resumed = fbosim("run " + cfg + " --threads 2 --out " + out.string());
  INFO(resumed.text);
  REQUIRE(resumed.status == 0);
  CHECK(resumed.text.find("resumed: 1 finished run(s)") != std::string::npos);
  check_same_outputs(out, whole);
  CHECK_FALSE(fs::exists(out / ".fbosim-partial"));
}

TEST_CASE("a failed fbosim run leaves no output directory it created") {
  const std::string cfg = write_temp("fbosim_provcli_148.yaml", kTiny);
  const fs::path root = fresh("failed");
  const Output o =
      fbosim_stopped_after(0, "run " + cfg + " --quiet --out " + (root / "a" / "b").string());
  INFO(o.text);
  CHECK(o.status == 130);
  CHECK(o.text.find("interrupted before the first run finished; nothing was kept") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(root));
}

TEST_CASE("fbosim run killed with SIGKILL leaves no temporary file and resumes") {
  // Long enough runs that the kill lands while a later run is computing.
  const std::string cfg = write_temp(
      "fbosim_provcli_kill.yaml",
      "rounds: 25\nruns: 6\nobjective: {grid_points: 200}\nagents: {count: 12, init_points: 2}\n"
      "rff: {features: 40}\nlocal_ts: {features: 40}\n");
  const fs::path whole = fresh("kill_whole"), out = fresh("kill");
  REQUIRE(fbosim("run " + cfg + " --quiet --threads 1 --out " + whole.string()).status == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::freopen("/dev/null", "w", stderr);
    execl(FBOSIM_BINARY, FBOSIM_BINARY, "run", cfg.c_str(), "--quiet", "--threads", "1", "--out",
          out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait for the first run's checkpoint (or the end of the process), then kill it.
  int status = 0;
  bool exited = false;
  while (!fs::exists(out / ".fbosim-partial" / "run-0.ckpt")) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      exited = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!exited) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  REQUIRE(WIFSIGNALED(status));  // killed mid-experiment (the runs are long enough)
  CHECK_FALSE(any_tmp(out));
  CHECK_FALSE(fs::exists(out / "summary.csv"));
  const Output resumed = fbosim("run " + cfg + " --threads 1 --out " + out.string());
  INFO(resumed.text);
  REQUIRE(resumed.status == 0);
  CHECK(resumed.text.find("resumed: ") != std::string::npos);
  check_same_outputs(out, whole);
  CHECK_FALSE(any_tmp(out));
}

TEST_CASE("a plain fbosim run into a sweep point cannot make sweep.csv report its epsilon") {
  const std::string cfg = write_temp("fbosim_provcli_199.yaml", kTiny);
  const fs::path out = fresh("sweep_point");
  REQUIRE(fbosim("sweep " + cfg + " --quiet --out " + out.string()).status == 0);
  CHECK_FALSE(fs::exists(out / ".lock"));
  const std::string csv = slurp(out / "sweep.csv");
  CHECK(csv.find(",epsilon,delta,") != std::string::npos);
  const fs::path point = out / "server.noise_multiplier=1";
  // Another config into the point is refused...
  const Output o =
      fbosim("run " + cfg + " --quiet --set server.noise_multiplier=4 --out " + point.string());
  CHECK(o.status != 0);
  CHECK(o.text.find("--force") != std::string::npos);
  // ... and once forced, the sweep refuses to take its results for the point's.
  REQUIRE(fbosim("run " + cfg + " --quiet --force --set server.noise_multiplier=4 --out " +
                 point.string())
              .status == 0);
  const Output again = fbosim("sweep " + cfg + " --quiet --out " + out.string());
  INFO(again.text);
  CHECK(again.status != 0);
  CHECK(again.text.find("server.noise_multiplier: 4 there, 1 here") != std::string::npos);
  CHECK(again.text.find("--force") != std::string::npos);
  const Output forced = fbosim("sweep " + cfg + " --force --out " + out.string());
  INFO(forced.text);
  REQUIRE(forced.status == 0);
  CHECK(forced.text.find("1 run, 1 skipped") != std::string::npos);
  CHECK(without_seconds(slurp(out / "sweep.csv")) == without_seconds(csv));
  // Files changed behind the sweep's back (the same config, another program) are redone.
  std::ofstream(point / "summary.csv", std::ios::app) << "\n";
  const Output changed = fbosim("sweep " + cfg + " --out " + out.string());
  INFO(changed.text);
  CHECK(changed.status == 0);
  CHECK(changed.text.find("files changed since the sweep wrote them") != std::string::npos);
  CHECK(changed.text.find("1 run, 1 skipped") != std::string::npos);
}

TEST_CASE("fbosim sweep re-runs, with a line saying so, the points of another build") {
  const std::string cfg = write_temp("fbosim_provcli_235.yaml", kTiny);
  const fs::path out = fresh("sweep_build");
  REQUIRE(fbosim("sweep " + cfg + " --quiet --jobs 2 --threads 1 --out " + out.string()).status ==
          0);
  // The sweep directory and every point record the build and the command line.
  for (const fs::path& record :
       {out / "provenance.yaml", out / "server.noise_multiplier=1" / "provenance.yaml"}) {
    const std::string text = slurp(record);
    INFO(text);
    CHECK(text.find("command: " + std::string(FBOSIM_BINARY) + " sweep " + cfg) !=
          std::string::npos);
    CHECK(text.find("\nbuild: ") != std::string::npos);
  }
  CHECK(slurp(out / "provenance.yaml").find("jobs: 2\nthreads: 1\nshard: 1/1") !=
        std::string::npos);
  const fs::path done = out / "server.noise_multiplier=2" / "sweep.done";
  std::string text = slurp(done);
  const auto at = text.find("build ");
  REQUIRE(at != std::string::npos);
  text.replace(at, text.find('\n', at) - at, "build 0123456789ab-modified-cafe");
  std::ofstream(done) << text;
  const Output o = fbosim("sweep " + cfg + " --out " + out.string());
  INFO(o.text);
  CHECK(o.status == 0);
  CHECK(o.text.find("made by build 0123456789ab-modified-cafe") != std::string::npos);
  CHECK(o.text.find("1 run, 1 skipped") != std::string::npos);
}

TEST_CASE("a failed fbosim merge leaves no .lock and no directory") {
  const std::string cfg = write_temp("fbosim_provcli_264.yaml", kTiny);
  const fs::path root = fresh("merge");
  REQUIRE(fbosim("sweep " + cfg + " --quiet --out " + (root / "a").string()).status == 0);
  REQUIRE(fbosim("sweep " + cfg + " --quiet --grid server.noise_multiplier=3 --out " +
                 (root / "b").string())
              .status == 0);
  const Output o = fbosim("merge " + (root / "a").string() + " " + (root / "b").string() +
                          " --out " + (root / "m").string());
  INFO(o.text);
  CHECK(o.status != 0);
  CHECK(o.text.find("not shards of the same sweep") != std::string::npos);
  CHECK_FALSE(fs::exists(root / "m"));
  // A failed merge into an existing directory leaves no .lock in it either.
  CHECK(fbosim("merge " + (root / "a").string() + " " + (root / "b").string() + " --out " +
               (root / "a").string())
            .status != 0);
  CHECK_FALSE(fs::exists(root / "a" / ".lock"));
  CHECK(fbosim("merge " + (root / "a").string() + " --out " + (root / "m").string()).status == 0);
  CHECK_FALSE(fs::exists(root / "m" / ".lock"));
  // A missing shard (issue 39): status 1, the missing point named, nothing written.
  REQUIRE(
      fbosim("sweep " + cfg + " --quiet --shard 1/2 --out " + (root / "half").string()).status ==
      0);
  const Output missing =
      fbosim("merge " + (root / "half").string() + " --out " + (root / "m2").string());
  INFO(missing.text);
  CHECK(missing.status == 1);
  CHECK(missing.text.find("1 point(s) missing (of 2 in the plan)") != std::string::npos);
  CHECK(missing.text.find("server.noise_multiplier=2") != std::string::npos);
  CHECK_FALSE(fs::exists(root / "m2"));
  const Output allowed = fbosim("merge " + (root / "half").string() + " --allow-missing --out " +
                                (root / "m2").string());
  CHECK(allowed.status == 0);
  CHECK(fs::exists(root / "m2" / "sweep.csv"));
}
