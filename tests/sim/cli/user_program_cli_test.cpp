// Issue 39, section 2, through the fbosim command: a config is code (what runs is printed, and a
// program named by a config file runs only with --allow-exec or FBOSIM_ALLOW_EXEC=1); a
// `command` program out of step with its queries, a `python` function calling os._exit(0) and
// a table smaller than agents.init_points are errors, exit 1, nothing on disk.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fbosim_process.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

// A directory of its own holding the config, the programs and the outputs.
struct Workdir {
  fs::path dir;
  Workdir() {
    static int count = 0;
    dir = fs::temp_directory_path() /
          ("fbosim-userprog-" + std::to_string(getpid()) + "-" + std::to_string(count++));
    fs::create_directories(dir);
  }
  ~Workdir() { fs::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return path(name);
  }
};

const char* kSmall = "algorithm: ts\nrounds: 2\nruns: 1\nagents: {count: 2, init_points: 1}\n";

// A program that leaves a file `ran` beside it when it starts, and answers every query.
std::string answering_program(const Workdir& w) {
  const std::string py =
      w.write("prog.py",
              "import json, os, sys\n"
              "open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ran'), 'w').close()\n"
              "for line in sys.stdin:\n"
              "    q = json.loads(line)\n"
              "    print(json.dumps({'id': q['id'], 'y': -sum(q['x'])}), flush=True)\n");
  return "/usr/bin/python3 " + py;
}

// Without FBOSIM_ALLOW_EXEC from the test's own environment.
fbosim_test::Output fbosim_clean(const std::string& args) {
  return fbosim_test::fbosim_with_env("-u FBOSIM_ALLOW_EXEC", args);
}

}  // namespace

TEST_CASE("a config file's command objective runs only with --allow-exec or FBOSIM_ALLOW_EXEC") {
  const Workdir w;
  const std::string program = answering_program(w);
  const std::string cfg = w.write("cmd.yaml", std::string(kSmall) +
                                                  "objective: {family: command, inputs: 2, "
                                                  "command: '" +
                                                  program + "'}\n");
  const std::string out = w.path("out");
  // Refused: the file, the key, what would run and how to consent; nothing ran, nothing written.
  auto r = fbosim_clean("run " + cfg + " --quiet --out " + out);
  INFO(r.text);
  CHECK(r.status == 1);
  CHECK_THAT(r.text, Contains(cfg + ": objective.command: this config runs the program `" +
                              program + "` (by /bin/sh -c, in ") &&
                         Contains("--allow-exec") && Contains("FBOSIM_ALLOW_EXEC=1") &&
                         Contains("A config is code"));
  CHECK_FALSE(fs::exists(w.path("ran")));
  CHECK_FALSE(fs::exists(out));
  // FBOSIM_ALLOW_EXEC other than 1 is no consent.
  r = fbosim_test::fbosim_with_env("FBOSIM_ALLOW_EXEC=yes", "run " + cfg + " --quiet --out " + out);
  CHECK(r.status == 1);
  CHECK_FALSE(fs::exists(out));
  // Consent by the flag: what runs is printed on stderr (also with --quiet).
  r = fbosim_clean("run " + cfg + " --quiet --allow-exec --out " + out);
  CHECK(r.status == 0);
  CHECK_THAT(r.text, Contains("fbosim: objective.command (from the config file " + cfg +
                              ") runs the program `" + program + "`"));
  CHECK(fs::exists(w.path("ran")));
  CHECK(fs::exists(fs::path(out) / "trace.csv"));
  // Consent by the environment.
  r = fbosim_test::fbosim_with_env("FBOSIM_ALLOW_EXEC=1",
                                   "run " + cfg + " --quiet --force --out " + w.path("out2"));
  CHECK(r.status == 0);
  // A program given on the command line needs no consent: the user wrote it.
  const std::string plain = w.write("plain.yaml", std::string(kSmall) +
                                                      "objective: {family: command, inputs: 2, "
                                                      "command: 'false'}\n");
  r = fbosim_clean("run " + plain + " --quiet --out " + w.path("out3") +
                   " --set \"objective.command=" + program + "\"");
  INFO(r.text);
  CHECK(r.status == 0);
  CHECK_THAT(r.text, Contains("fbosim: objective.command (from the command line) runs"));
  // audit evaluates objectives too.
  r = fbosim_clean("audit " + cfg);
  CHECK(r.status == 1);
  CHECK_THAT(r.text, Contains("objective.command: this config runs the program"));
}

TEST_CASE("a sweep asks for consent when its config file names a program") {
  const Workdir w;
  const std::string program = answering_program(w);
  const std::string cfg = w.write("cmd.yaml", std::string(kSmall) +
                                                  "objective: {family: command, inputs: 2, "
                                                  "command: '" +
                                                  program + "'}\n");
  auto r = fbosim_clean("sweep " + cfg + " --quiet --grid seed=1,2 --out " + w.path("s"));
  INFO(r.text);
  CHECK(r.status == 1);
  CHECK_THAT(r.text, Contains("objective.command: this config runs the program"));
  CHECK_FALSE(fs::exists(w.path("s")));
  CHECK_FALSE(fs::exists(w.path("ran")));
  r = fbosim_clean("sweep " + cfg + " --quiet --allow-exec --grid seed=1,2 --out " + w.path("s"));
  CHECK(r.status == 0);
  // A program in the file's `sweep:` grid is the file's, even when --set names another.
  const std::string grid =
      w.write("grid.yaml", std::string(kSmall) +
                               "objective: {family: command, inputs: 2, command: 'false'}\n"
                               "sweep:\n  objective.command: ['" +
                               program + "', 'true']\n");
  r = fbosim_clean("sweep " + grid + " --quiet --out " + w.path("g") +
                   " --set \"objective.command=" + program + "\"");
  CHECK(r.status == 1);
  CHECK_THAT(r.text, Contains("objective.command: this config runs the program `" + program + "`"));
  // A --grid over the program is the command line's.
  r = fbosim_clean("sweep " + grid + " --quiet --out " + w.path("g") +
                   " --grid \"objective.command=" + program + "\"");
  INFO(r.text);
  CHECK(r.status == 0);
}

TEST_CASE("a command program out of step with its queries stops the run, nothing on disk") {
  const Workdir w;
  const std::string two = w.write("two.py",
                                  "import json, sys\n"
                                  "for line in sys.stdin:\n"
                                  "    print(json.dumps({'y': 1}))\n"
                                  "    print(json.dumps({'y': 2}), flush=True)\n");
  const std::string cfg = w.write("cmd.yaml", std::string(kSmall) +
                                                  "objective: {family: command, inputs: 2, "
                                                  "workers: 1, command: '/usr/bin/python3 " +
                                                  two + "'}\n");
  const auto r = fbosim_clean("run " + cfg + " --quiet --allow-exec --out " + w.path("out"));
  INFO(r.text);
  CHECK(r.status == 1);
  // Which of the two checks sees the second line first depends on the timing of its arrival.
  CHECK_THAT(r.text, Contains("run 0, round 0") && Contains("'{\"y\": 2}'") &&
                         (Contains("a second line '{\"y\": 2}' after its answer") ||
                          Contains("the program wrote '{\"y\": 2}' before it read this query")));
  CHECK_FALSE(fs::exists(w.path("out")));
}

TEST_CASE("agents.init_points above a table's points is refused (issue 39)") {
  const Workdir w;
  const std::string table =
      w.write("t.csv", "agent,x0,y\n0,0,1\n0,0.5,2\n0,1,3\n1,0,1\n1,0.5,2\n1,1,3\n");
  const std::string cfg = w.write("t.yaml",
                                  "algorithm: ts\nrounds: 2\nruns: 1\n"
                                  "agents: {count: 2, init_points: 4}\n"
                                  "objective: {family: table, table: '" +
                                      table + "'}\n");
  auto r = fbosim_clean("run " + cfg + " --quiet --out " + w.path("out"));
  INFO(r.text);
  CHECK(r.status == 1);
  CHECK_THAT(r.text, Contains("agents.init_points: 4 initial points, but the objective's domain "
                              "has 3 points"));
  CHECK_FALSE(fs::exists(w.path("out")));
  r = fbosim_clean("run " + cfg + " --quiet --out " + w.path("out") +
                   " --set agents.init_points=3");
  CHECK(r.status == 0);
}

#ifdef FBOSIM_PYTHON_PLUGIN_PATH
TEST_CASE("a python objective: consent for the file's module, os._exit(0) is an error") {
  const Workdir w;
  w.write("issue39_module.py",
          "import os\n"
          "open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'imported'), 'w')"
          ".close()\n"
          "def f(x, agent, seed):\n    return -sum(x)\n"
          "def quits(x, agent, seed):\n    os._exit(0)\n");
  w.write("issue39_exits_at_import.py",
          "import os\nos._exit(0)\ndef f(x, agent, seed): return 0\n");
  const std::string env = "-u FBOSIM_ALLOW_EXEC PYTHONPATH=" + w.dir.string();
  const auto cfg = [&](const std::string& callable) {
    return w.write("py.yaml", std::string(kSmall) +
                                  "objective: {family: python, inputs: 2, callable: '" + callable +
                                  "'}\n");
  };
  auto r = fbosim_test::fbosim_with_env(
      env, "run " + cfg("issue39_module:f") + " --quiet --out " + w.path("out"));
  INFO(r.text);
  CHECK(r.status == 1);
  CHECK_THAT(r.text, Contains("objective.callable: this config imports the Python module "
                              "'issue39_module'"));
  CHECK_FALSE(fs::exists(w.path("imported")));
  CHECK_FALSE(fs::exists(w.path("out")));
  // os._exit(0) in the function, and at the module's import: exit 1 naming it, no outputs.
  for (const std::string callable : {"issue39_module:quits", "issue39_exits_at_import:f"}) {
    r = fbosim_test::fbosim_with_env(
        env, "run " + cfg(callable) + " --quiet --allow-exec --out " + w.path("out"));
    INFO(callable << ": " << r.text);
    CHECK(r.status == 1);
    CHECK_THAT(r.text, Contains("objective.callable '" + callable + "'") &&
                           Contains("called os._exit(0), which would end fbosim at once"));
    CHECK_FALSE(fs::exists(w.path("out")));
  }
}
#endif
