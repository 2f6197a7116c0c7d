// The `command` family against small programs speaking the JSON-lines protocol: answers,
// parallel agents, and every failure (crash, hang, malformed answer, Ctrl-C) an error naming
// the agent, round and x with the program's stderr, no process left behind.
#include <catch2/catch.hpp>

#include <dirent.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "datasets/command/command_family.hpp"
#include "datasets/objective_family_entry.hpp"
#include "core/cancellation.hpp"

using namespace fbosim;
using namespace fbosim::datasets;
using Catch::Matchers::Contains;

namespace {

// A Python program in a directory of its own, removed with the object.
struct Script {
  std::filesystem::path dir, path;
  // prelude: statements run before the program reads its first query.
  explicit Script(const std::string& body, const std::string& prelude = "") {
    static int count = 0;
    dir = std::filesystem::temp_directory_path() /
          ("fbosim-command-" + std::to_string(getpid()) + "-" + std::to_string(count++));
    std::filesystem::create_directories(dir);
    path = dir / "objective.py";
    std::ofstream(path) << "import json, sys, time\n"
                        << prelude
                        << "for line in sys.stdin:\n"
                           "    q = json.loads(line)\n"
                        << body;
  }
  ~Script() { std::filesystem::remove_all(dir); }
  std::string command() const { return "/usr/bin/python3 " + path.string(); }
};

std::unique_ptr<ObjectiveFamily> family(const std::string& command, double timeout = 20,
                                        int workers = 0, int inputs = 2) {
  const ObjectiveFamilyEntry& e = objective_registry().at("command");
  schema::Options o = e.options;
  o.set("objective.command", command);
  o.set("objective.timeout", timeout);
  o.set("objective.workers", std::int64_t{workers});
  o.set("objective.inputs", std::int64_t{inputs});
  return e.make(o, "");
}

// This process's children (zombies included), from /proc.
int children() {
  int n = 0;
  DIR* d = opendir("/proc");
  while (const dirent* e = readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::ifstream stat(std::string("/proc/") + e->d_name + "/stat");
    std::string line;
    std::getline(stat, line);
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    char state;
    int ppid;
    if (std::sscanf(line.c_str() + close + 2, "%c %d", &state, &ppid) == 2 && ppid == getpid()) ++n;
  }
  closedir(d);
  return n;
}

const char* kEcho =
    "    y = sum(q['x']) + 10 * q['agent'] + q['round']\n"
    "    print(json.dumps({'y': y, 'f': y - (q['seed'] % 7)}), flush=True)\n";

}  // namespace

TEST_CASE("command: the program's answers, told agent, round, x and seed") {
  const Script s(kEcho);
  {
    const auto f = family(s.command());
    const auto objectives = f->make(3, core::RngFactory(0, 0));
    CHECK(objectives[2]->domain().dim == 2);
    CHECK_FALSE(objectives[2]->domain().is_grid());
    CHECK_FALSE(objectives[2]->optimum());
    core::RngStream rng(5);
    core::RngStream copy = rng;
    const std::uint64_t seed = copy.engine()();
    const auto e = objectives[2]->query_at(Eigen::Vector2d(0.25, 0.5), rng, {1, 4});
    CHECK(e.y == 0.75 + 20 + 4);
    CHECK(e.f == e.y - static_cast<double>(seed % 7));
    // f defaults to y.
    const Script y_only("    print(json.dumps({'y': 1.5}), flush=True)\n");
    const auto g = family(y_only.command())->make(1, core::RngFactory(0, 0));
    const auto a = g[0]->query(Eigen::Vector2d(0, 0), rng);
    CHECK(a.f == 1.5);
    CHECK(a.y == 1.5);
  }
  CHECK(children() == 0);
}

TEST_CASE("command: agents evaluated in parallel give what one thread gives") {
  const Script s(kEcho);
  const auto f = family(s.command());
  const auto objectives = f->make(8, core::RngFactory(0, 0));
  std::vector<double> serial(8), parallel(8);
  for (int n = 0; n < 8; ++n) {
    core::RngStream rng(n);
    serial[n] = objectives[n]->query_at(Eigen::Vector2d(0.1 * n, 0.3), rng, {0, 2}).f;
  }
  std::vector<std::thread> threads;
  for (int n = 0; n < 8; ++n)
    threads.emplace_back([&, n] {
      core::RngStream rng(n);
      parallel[n] = objectives[n]->query_at(Eigen::Vector2d(0.1 * n, 0.3), rng, {0, 2}).f;
    });
  for (auto& t : threads) t.join();
  CHECK(serial == parallel);
  // With one worker the agents queue for it.
  const auto one = family(s.command(), 20, 1)->make(4, core::RngFactory(0, 0));
  threads.clear();
  for (int n = 0; n < 4; ++n)
    threads.emplace_back([&, n] {
      core::RngStream rng(n);
      parallel[n] = one[n]->query_at(Eigen::Vector2d(0.1 * n, 0.3), rng, {0, 2}).f;
    });
  for (auto& t : threads) t.join();
  for (int n = 0; n < 4; ++n) CHECK(parallel[n] == serial[n]);
}

TEST_CASE("command: a crash names the agent, round, x, exit status and stderr") {
  const Script s(
      "    sys.stderr.write('loading data...\\nboom: no such file\\n')\n"
      "    sys.exit(3)\n");
  {
    const auto o = family(s.command())->make(2, core::RngFactory(0, 0));
    core::RngStream rng(0);
    CHECK_THROWS_WITH(o[1]->query_at(Eigen::Vector2d(0.5, 0.25), rng, {0, 7}),
                      Contains("agent 1, run 0, round 7, x = [0.5, 0.25]") &&
                          Contains("exited with status 3") && Contains("boom: no such file"));
    // A program that cannot start at all.
    const auto missing = family("/nonexistent/program")->make(1, core::RngFactory(0, 0));
    CHECK_THROWS_WITH(missing[0]->query(Eigen::Vector2d(0, 0), rng),
                      Contains("exited with status 127") && Contains("/nonexistent/program"));
  }
  CHECK(children() == 0);
}

TEST_CASE("command: a hanging program is killed at objective.timeout") {
  const Script s("    time.sleep(60)\n");
  {
    const auto o = family(s.command(), 0.3)->make(1, core::RngFactory(0, 0));
    core::RngStream rng(0);
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH(
        o[0]->query_at(Eigen::Vector2d(0.5, 0.25), rng, {0, 2}),
        Contains("round 2") && Contains("no answer within objective.timeout = 0.3 s"));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3));
  }
  CHECK(children() == 0);
}

TEST_CASE("command: Ctrl-C stops a hanging program within a second") {
  const Script s("    time.sleep(60)\n");
  {
    const auto o = family(s.command(), 600)->make(1, core::RngFactory(0, 0));
    core::RngStream rng(0);
    std::thread ctrl_c([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      core::request_cancellation();
    });
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(o[0]->query(Eigen::Vector2d(0.5, 0.25), rng), core::Cancelled);
    ctrl_c.join();
    core::reset_cancellation();
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(1300));
  }
  CHECK(children() == 0);
}

TEST_CASE("command: malformed answers are errors quoting the answer") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"print('hello', flush=True)", "not valid JSON"},
      {"print('{\"y\": NaN}', flush=True)", "not valid JSON"},
      {"print('[1, 2]', flush=True)", "not a JSON object"},
      {"print('{\"f\": 1}', flush=True)", "no \"y\""},
      {"print('{\"y\": \"high\"}', flush=True)", "\"y\" is not a number"},
      {"print('{\"y\": 1, \"f\": null}', flush=True)", "\"f\" is not a number"},
      {"print('{\"y\": 1, \"z\": 2}', flush=True)", "unknown key 'z'"},
      {"print('{\"y\": 1e999}', flush=True)", "not valid JSON"},
      {"sys.exit(0)", "the program exited with status 0 before answering"},
      {"import os; os.close(0); os.close(1); time.sleep(30)",
       "closed its stdout without an answer"},
  };
  for (const auto& [line, why] : cases) {
    INFO(line);
    const Script s("    " + line + "\n");
    const auto o = family(s.command())->make(1, core::RngFactory(0, 0));
    core::RngStream rng(0);
    CHECK_THROWS_WITH(o[0]->query_at(Eigen::Vector2d(0.5, 0.25), rng, {0, 1}),
                      Contains("agent 0, run 0, round 1, x = [0.5, 0.25]") && Contains(why));
  }
  CHECK(children() == 0);
}

// Issue 39: a program out of step with its queries (a second line per query, a line before its
// first query, a wrong id) shifted every later answer to the wrong query, exit 0. Each is now an
// error naming the agent, round and the offending line.
TEST_CASE("command: each answer is bound to its query (id, unsolicited and extra lines)") {
  // The request carries an id, which a well-behaved program echoes.
  const Script echo("    print(json.dumps({'id': q['id'], 'y': q['id']}), flush=True)\n");
  {
    const auto o = family(echo.command(), 20, 1)->make(1, core::RngFactory(0, 0));
    core::RngStream rng(0);
    CHECK(o[0]->query_at(Eigen::Vector2d(0.5, 0.25), rng, {0, 0}).y == 1);
    CHECK(o[0]->query_at(Eigen::Vector2d(0.5, 0.25), rng, {0, 1}).y == 2);
  }
  struct Case {
    std::string body, prelude, why, line;
  };
  const std::vector<Case> cases = {
      // Two lines per query, written at once: the second is refused after the first answer.
      {"    print(json.dumps({'y': 1}) + '\\n' + json.dumps({'y': 2}), flush=True)\n", "",
       "a second line '{\"y\": 2}' after its answer to this query (id 1)", ""},
      // Two lines per query, the second a moment later: refused before the next query.
      {"    print(json.dumps({'y': 1}), flush=True); time.sleep(0.05)\n"
       "    print(json.dumps({'y': 2}), flush=True)\n",
       "", "the program wrote '{\"y\": 2}' before it read this query (id 2)", ""},
      // An answer before the first query (the program starts, then writes, then reads).
      {"    print(json.dumps({'y': 5}), flush=True)\n",
       "time.sleep(0.3)\nprint(json.dumps({'y': 0}), flush=True)\ntime.sleep(0.3)\n",
       "the program wrote '{\"y\": 0}' before it read this query (id 1)",
       "written before its first query"},
      // An answer echoing another query's id.
      {"    print(json.dumps({'id': q['id'] + 1, 'y': 1}), flush=True)\n", "",
       "it answers query id 2, not this query (id 1)", ""},
      {"    print(json.dumps({'id': 'one', 'y': 1}), flush=True)\n", "", "\"id\" is not an integer",
       ""},
  };
  for (const Case& c : cases) {
    INFO(c.body << c.prelude);
    const Script s(c.body, c.prelude);
    const auto o = family(s.command(), 20, 1)->make(2, core::RngFactory(0, 0));
    core::RngStream rng(0);
    const auto twice = [&] {
      o[1]->query_at(Eigen::Vector2d(0.5, 0.25), rng, {0, 3});
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      o[1]->query_at(Eigen::Vector2d(0.5, 0.25), rng, {0, 4});
    };
    CHECK_THROWS_WITH(twice(),
                      Contains("agent 1, run 0, round") && Contains(c.why) && Contains(c.line));
  }
  // A huge offending line is quoted in part, with its length.
  const Script huge("    print(json.dumps({'y': 1}) + '\\n' + 'z' * 100000, flush=True)\n");
  const auto o = family(huge.command(), 20, 1)->make(1, core::RngFactory(0, 0));
  core::RngStream rng(0);
  try {
    o[0]->query_at(Eigen::Vector2d(0.5, 0.25), rng, {0, 3});
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Contains("zzz... (") && Contains(" characters)"));
    CHECK(what.size() < 2000);
  }
  CHECK(children() == 0);
}

// Not run by default ([.]): the per-evaluation overhead with a warm pool, a trivial program
// (docs/OBJECTIVES.md): build/tests/test_datasets_command "[.overhead]"
TEST_CASE("command: per-evaluation overhead with a warm pool", "[.overhead]") {
  const Script s("    sys.stdout.write('{\"y\": 1.0}\\n'); sys.stdout.flush()\n");
  const auto o = family(s.command())->make(1, core::RngFactory(0, 0));
  core::RngStream rng(0);
  (void)o[0]->query(Eigen::Vector2d(0.5, 0.5), rng);  // starts the worker
  const int n = 5000;
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < n; ++k) (void)o[0]->query_at(Eigen::Vector2d(0.5, 0.5), rng, {0, k});
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
  std::printf("command: %.1f us per evaluation (%d evaluations, warm pool)\n", us, n);
  CHECK(us < 1000);
}
