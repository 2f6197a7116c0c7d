// The `python` family through the embedding plugin: f(x, agent, seed) returning y or (y, f),
// agents on several threads (the GIL serialises them, the results do not change), and every
// bad function (exception, wrong return type, NaN, missing module) an error naming it.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "datasets/objective_family_entry.hpp"
#include "datasets/python/python_family.hpp"

using namespace fbosim;
using namespace fbosim::datasets;
using Catch::Matchers::Contains;

namespace {

// A module fbosim_test_objectives.py on PYTHONPATH, written before the interpreter starts.
const std::filesystem::path& module_dir() {
  static const std::filesystem::path dir = [] {
    const auto d =
        std::filesystem::temp_directory_path() / ("fbosim-python-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    std::ofstream(d / "fbosim_test_objectives.py") << "import math\n"
                                                      "def total(x, agent, seed):\n"
                                                      "    return sum(x) + 10 * agent\n"
                                                      "def pair(x, agent, seed):\n"
                                                      "    return (x[0] + agent, x[0] - seed % 5)\n"
                                                      "def as_list(x, agent, seed):\n"
                                                      "    return [1.0, 2]\n"
                                                      "def raises(x, agent, seed):\n"
                                                      "    raise ValueError('bad x %r' % x)\n"
                                                      "def text(x, agent, seed):\n"
                                                      "    return 'high'\n"
                                                      "def flag(x, agent, seed):\n"
                                                      "    return True\n"
                                                      "def nothing(x, agent, seed):\n"
                                                      "    pass\n"
                                                      "def triple(x, agent, seed):\n"
                                                      "    return (1, 2, 3)\n"
                                                      "def nan(x, agent, seed):\n"
                                                      "    return math.nan\n"
                                                      "def inf_f(x, agent, seed):\n"
                                                      "    return (1.0, math.inf)\n"
                                                      "not_callable = 3\n"
                                                      "import os, sys\n"
                                                      "def exits(x, agent, seed):\n"
                                                      "    os._exit(0)\n"
                                                      "def exits_posix(x, agent, seed):\n"
                                                      "    import posix; posix._exit(0)\n"
                                                      "def sys_exit(x, agent, seed):\n"
                                                      "    sys.exit(0)\n"
                                                      "def exit_caught(x, agent, seed):\n"
                                                      "    try:\n"
                                                      "        os._exit(0)\n"
                                                      "    except RuntimeError:\n"
                                                      "        return 1.0\n";
    std::ofstream(d / "fbosim_test_exits_at_import.py") << "import os\nos._exit(0)\n"
                                                           "def f(x, agent, seed):\n"
                                                           "    return 0.0\n";
    setenv("PYTHONPATH", d.c_str(), 1);
    return d;
  }();
  return dir;
}

std::vector<std::shared_ptr<const Objective>> objectives(const std::string& fn, int agents) {
  (void)module_dir();
  const ObjectiveFamilyEntry& e = objective_registry().at("python");
  schema::Options o = e.options;
  o.set("objective.callable", "fbosim_test_objectives:" + fn);
  o.set("objective.inputs", std::int64_t{2});
  return e.make(o, "")->make(agents, core::RngFactory(0, 0));
}

}  // namespace

#ifdef FBOSIM_PYTHON_PLUGIN_PATH
TEST_CASE("python: the function's values, told x, agent and seed") {
  const auto o = objectives("total", 3);
  CHECK(o[1]->domain().dim == 2);
  core::RngStream rng(0);
  const auto a = o[2]->query(Eigen::Vector2d(0.25, 0.5), rng);
  CHECK(a.y == 20.75);
  CHECK(a.f == 20.75);
  const auto p = objectives("pair", 2);
  core::RngStream r1(9), copy(9);
  const std::uint64_t seed = copy.engine()();
  const auto b = p[1]->query(Eigen::Vector2d(0.5, 0), r1);
  CHECK(b.y == 1.5);
  CHECK(b.f == 0.5 - static_cast<double>(seed % 5));
  const auto l = objectives("as_list", 1);
  CHECK(l[0]->query(Eigen::Vector2d(0, 0), rng).f == 2);
}

TEST_CASE("python: agents on several threads give what one thread gives") {
  const auto o = objectives("pair", 8);
  std::vector<double> serial(8), parallel(8);
  for (int n = 0; n < 8; ++n) {
    core::RngStream rng(n);
    serial[n] = o[n]->query(Eigen::Vector2d(0.1 * n, 0), rng).f;
  }
  std::vector<std::thread> threads;
  for (int n = 0; n < 8; ++n)
    threads.emplace_back([&, n] {
      core::RngStream rng(n);
      for (int k = 0; k < 50; ++k) parallel[n] = o[n]->query(Eigen::Vector2d(0.1 * n, 0), rng).f;
    });
  for (auto& t : threads) t.join();
  for (int n = 0; n < 8; ++n) {
    core::RngStream rng(n);
    for (int k = 0; k < 49; ++k) (void)rng.engine()();
    CHECK(parallel[n] == 0.1 * n - static_cast<double>(rng.engine()() % 5));
  }
}

TEST_CASE("python: bad functions are errors naming the callable, agent, round and x") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"raises", "raised ValueError: bad x [0.5, 0.25]"},
      {"text", "returned 'high' (str), expected a number y or a pair (y, f) of numbers"},
      {"flag", "returned True (bool)"},
      {"nothing", "returned None (NoneType)"},
      {"triple", "returned (1, 2, 3) (tuple)"},
      {"nan", "returned a non-finite value nan"},
      {"inf_f", "returned a non-finite value (1.0, inf)"},
  };
  for (const auto& [fn, why] : cases) {
    INFO(fn);
    const auto o = objectives(fn, 2);
    core::RngStream rng(0);
    CHECK_THROWS_WITH(o[1]->query_at(Eigen::Vector2d(0.5, 0.25), rng, {0, 3}),
                      Contains("objective.callable 'fbosim_test_objectives:" + fn +
                               "': agent 1, run 0, round 3, x = [0.5, 0.25]: ") &&
                          Contains(why));
  }
  CHECK_THROWS_WITH(objectives("missing", 1),
                    Contains("objective.callable 'fbosim_test_objectives:missing': cannot load") &&
                        Contains("has no attribute 'missing'"));
  CHECK_THROWS_WITH(objectives("not_callable", 1), Contains("is not callable"));
  CHECK_THROWS_WITH(
      [] {
        const ObjectiveFamilyEntry& e = objective_registry().at("python");
        schema::Options o = e.options;
        o.set("objective.callable", std::string("no_such_module_xyz:f"));
        return e.make(o, "");
      }(),
      Contains("No module named 'no_such_module_xyz'"));
}

// Issue 39: os._exit(0) in the function (or at its module's import) ended the process with
// status 0 and no outputs. While the user's code runs, it raises instead; then it is restored.
// Each case runs in a child process, which reports by its exit status: os._exit(0) ended the
// test process itself with status 0 before the change, which ctest takes for a pass.
int in_child(const std::function<void()>& body, const std::vector<std::string>& words) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    int code = 10;  // no error at all
    try {
      body();
    } catch (const std::exception& e) {
      code = 42;
      for (const std::string& w : words)
        if (std::string(e.what()).find(w) == std::string::npos) code = 11;
      if (code != 42) std::fprintf(stderr, "%s\n", e.what());
    }
    std::fflush(nullptr);
    _exit(code);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_CASE("python: os._exit and sys.exit in the user's code are errors, not an exit") {
  (void)objectives("total", 1);  // the interpreter starts in this process, before the forks
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"exits", "called os._exit(0), which would end fbosim at once, without its outputs"},
      {"exits_posix", "called os._exit(0)"},
      {"sys_exit", "called sys.exit, which would end fbosim without its outputs"},
  };
  for (const auto& [fn, why] : cases) {
    INFO(fn);
    const std::string name = fn;
    CHECK(in_child(
              [&name] {
                const auto o = objectives(name, 2);
                core::RngStream rng(0);
                o[1]->query_at(Eigen::Vector2d(0.5, 0.25), rng, {0, 3});
              },
              {"objective.callable 'fbosim_test_objectives:" + fn + "': agent 1, run 0, round 3",
               why}) == 42);
  }
  CHECK(in_child(
            [] {
              const ObjectiveFamilyEntry& e = objective_registry().at("python");
              schema::Options o = e.options;
              o.set("objective.callable", std::string("fbosim_test_exits_at_import:f"));
              e.make(o, "");
            },
            {"objective.callable 'fbosim_test_exits_at_import:f'", "called os._exit(0)"}) == 42);
  // A function that catches the error goes on: the guard changes nothing else.
  core::RngStream rng(0);
  CHECK(objectives("exit_caught", 1)[0]->query_at(Eigen::Vector2d(0.5, 0.25), rng, {0, 0}).y ==
        1.0);
}
#else
TEST_CASE("python: built without the plugin, the family says so") {
  const ObjectiveFamilyEntry& e = objective_registry().at("python");
  schema::Options o = e.options;
  o.set("objective.callable", std::string("m:f"));
  CHECK_THROWS_WITH(e.make(o, ""), Contains("without the Python plugin"));
}
#endif

#ifdef FBOSIM_PYTHON_PLUGIN_PATH
// Not run by default ([.]): the per-evaluation overhead of a trivial function
// (docs/OBJECTIVES.md): build/tests/test_datasets_python "[.overhead]"
TEST_CASE("python: per-evaluation overhead", "[.overhead]") {
  const auto o = objectives("total", 1);
  core::RngStream rng(0);
  (void)o[0]->query(Eigen::Vector2d(0.5, 0.5), rng);
  const int n = 100000;
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < n; ++k) (void)o[0]->query_at(Eigen::Vector2d(0.5, 0.5), rng, {0, k});
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
  std::printf("python: %.2f us per evaluation (%d evaluations)\n", us, n);
  CHECK(us < 50);
}
#endif
