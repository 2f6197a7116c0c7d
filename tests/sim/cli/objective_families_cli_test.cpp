// Contract test of the objective-family registry through the engine (issue 25): every
// registered family runs a tiny experiment with `fbosim run` and gives the same bytes with 1
// and 3 threads. A family added to the registry without a tiny config here fails the test.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "datasets/objective_family_entry.hpp"
#include "fbosim_process.hpp"

using namespace fbosim;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kShared = std::string(FBOSIM_SHARED_DIR) + "/datasets";

// family -> (the objective section of a tiny config, whether it can run here).
std::map<std::string, std::pair<std::string, bool>> tiny(const fs::path& dir) {
  std::ofstream(dir / "values.csv") << "agent,x0,x1,y,f\n"
                                       "0,0,0,1,1\n0,0.5,0.5,2,2.5\n0,1,0.25,0,0\n"
                                       "1,0,0,3,3\n1,0.5,0.5,1,1\n1,1,0.25,2,2\n"
                                       "2,0,0,0,0\n2,0.5,0.5,1,1\n2,1,0.25,5,4\n";
  std::ofstream(dir / "contract_objective.py")
      << "import json, sys\n"
         "def f(x, agent, seed):\n"
         "    return (-sum((v - 0.2 * agent) ** 2 for v in x) + (seed % 1000) * 1e-4,\n"
         "            -sum((v - 0.2 * agent) ** 2 for v in x))\n"
         "if __name__ == '__main__':\n"
         "    for line in sys.stdin:\n"
         "        q = json.loads(line)\n"
         "        y, v = f(q['x'], q['agent'], q['seed'])\n"
         "        print(json.dumps({'y': y, 'f': v}), flush=True)\n";
  const bool landmine = fs::exists(kShared + "/landmine/LandmineData.mat");
  const bool har = fs::exists(kShared + "/har");
  const std::string root = "datasets: {root: '" + kShared + "'}\n";
  return {
      {"gp_grid", {"objective: {family: gp_grid, grid_points: 50}\n", true}},
      {"heterogeneous", {"objective: {family: heterogeneous, grid_points: 50}\n", true}},
      {"gp_box", {"objective: {family: gp_box, dim: 2}\n", true}},
      {"gp_grid2d", {"objective: {family: gp_grid2d, grid_side: 8}\n", true}},
      {"landmine", {"objective: {family: landmine}\n" + root, landmine}},
      {"landmine_logistic", {"objective: {family: landmine_logistic}\n" + root, landmine}},
      {"activity", {"objective: {family: activity, epochs: 1}\n" + root, har}},
      {"emnist", {"", false}},  // the CNN training: tests/datasets/emnist
      {"branin", {"objective: {family: branin, noise_var: 0.01}\n", true}},
      {"test_function",
       {"objective: {family: test_function, function: hartmann3, noise_var: 0.01, shift: 0.2, "
        "scale: 2}\n",
        true}},
      {"table",
       {"objective: {family: table, table: '" + (dir / "values.csv").string() + "'}\n", true}},
      {"command",
       {"objective: {family: command, inputs: 2, command: '/usr/bin/python3 " +
            (dir / "contract_objective.py").string() + "'}\n",
        true}},
#ifdef FBOSIM_PYTHON_PLUGIN_PATH
      {"python",
       {"objective: {family: python, inputs: 2, callable: 'contract_objective:f'}\n", true}},
#else
      {"python", {"", false}},
#endif
  };
}

}  // namespace

TEST_CASE("every registered objective family runs through the engine, the same for any threads") {
  const fs::path dir = fs::temp_directory_path() / ("fbosim-families-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const auto configs = tiny(dir);
  for (const datasets::ObjectiveFamilyEntry& e : datasets::objective_registry()) {
    INFO("family " << e.name);
    const auto it = configs.find(e.name);
    REQUIRE(it != configs.end());  // a new family needs a tiny config here
    if (!it->second.second) {
      WARN("family " << e.name << ": skipped (data or build option missing)");
      continue;
    }
    const std::string cfg = (dir / (e.name + ".yaml")).string();
    std::ofstream(cfg) << "algorithm: dp_fts\nrounds: 3\nruns: 2\n"
                          "agents: {count: 3, init_points: 2}\nrff: {features: 10}\n"
                          "local_ts: {features: 10}\nserver: {sampling_rate: 0.5}\n"
                       << it->second.first;
    std::string traces[2];
    for (int k = 0; k < 2; ++k) {
      const fs::path out = dir / (e.name + "-" + std::to_string(k));
      // The python family finds contract_objective.py on PYTHONPATH.
      const auto r = fbosim_test::fbosim_with_env(
          "PYTHONPATH=" + dir.string(), "run " + cfg + " --quiet --force --allow-exec --out " +
                                            out.string() + " --threads " + (k ? "3" : "1"));
      INFO(r.text);
      REQUIRE(r.status == 0);
      traces[k] = slurp(out / "trace.csv");
    }
    CHECK(traces[0] == traces[1]);
    // Every agent of both runs evaluated (run,agent,... rows).
    for (const char* row : {"\n0,0,", "\n0,2,", "\n1,1,"})
      CHECK(traces[0].find(row) != std::string::npos);
  }
  fs::remove_all(dir);
}

// The algorithms that need a finite domain ask the family's traits, not its name (issue 25):
// PO-GP-UCB, GP-UCB and DP-BO and the exact local TS step run on Branin's grid and on a table
// (the old reader compared names and refused both), and refuse a box.
TEST_CASE("finite-domain algorithms run on any family with a finite domain (traits, issue 25)") {
  const fs::path dir = fs::temp_directory_path() / ("fbosim-finite-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const auto configs = tiny(dir);
  const std::string branin = "objective: {family: branin, noise_var: 0.01, branin_grid: 8}\n";
  const std::string table = configs.at("table").first;
  const std::string small = "rounds: 3\nruns: 1\n";
  // (local_ts.features is the RFF model's: refused with method exact, issue 39.)
  const std::string features = "rff: {features: 10}\nlocal_ts: {method: exact}\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"po_gp_ucb_branin",
       "algorithm: po_gp_ucb\nagents: {count: 1, init_points: 2}\ncurator: {r: 2}\n" + branin},
      {"gp_ucb_branin", "algorithm: gp_ucb\nagents: {count: 1, init_points: 2}\n" + branin},
      {"gp_ucb_table", "algorithm: gp_ucb\nagents: {count: 3, init_points: 1}\n" + table},
      {"po_gp_ucb_table", "algorithm: po_gp_ucb\nagents: {count: 3, init_points: 1}\n" + table},
      {"dp_bo_branin", "algorithm: dp_bo\nagents: {count: 1, init_points: 2}\n" + branin},
      {"dp_bo_table", "algorithm: dp_bo\nagents: {count: 3, init_points: 1}\n" + table},
      {"ts_exact_branin",
       "algorithm: ts\nagents: {count: 2, init_points: 2}\n" + features + branin},
      {"fts_exact_table",
       "algorithm: fts\nagents: {count: 3, init_points: 1}\n" + features + table},
  };
  for (const auto& [name, text] : cases) {
    INFO(name);
    const std::string cfg = (dir / (name + ".yaml")).string();
    std::ofstream(cfg) << small << text;
    const auto r =
        fbosim_test::fbosim("run " + cfg + " --quiet --force --out " + (dir / name).string());
    INFO(r.text);
    CHECK(r.status == 0);
    CHECK(fs::exists(dir / name / "trace.csv"));
  }
  // A box is refused, naming the key and the family.
  for (const std::string algorithm : {"po_gp_ucb", "gp_ucb"}) {
    const std::string cfg = (dir / "box.yaml").string();
    std::ofstream(cfg) << small << "algorithm: " << algorithm
                       << "\nagents: {count: 1}\nobjective: {family: branin}\n";
    const auto r = fbosim_test::fbosim("config " + cfg);
    CHECK(r.status == 1);
    CHECK(r.text.find("objective.family: " + algorithm + " needs the curator's finite dataset") !=
          std::string::npos);
    CHECK(r.text.find("not 'branin'") != std::string::npos);
  }
  // A table's points are known when its file is read: too many initial points are refused
  // then, naming the key, with nothing left on disk.
  {
    const std::string cfg = (dir / "init.yaml").string();
    std::ofstream(cfg) << small << "algorithm: gp_ucb\nagents: {count: 3, init_points: 5}\n"
                       << table;
    const auto r =
        fbosim_test::fbosim("run " + cfg + " --quiet --force --out " + (dir / "init").string());
    CHECK(r.status == 1);
    CHECK(r.text.find("agents.init_points: must be in [1, 3] (the points of the domain), got 5") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(dir / "init"));
  }
  const std::string cfg = (dir / "exact_box.yaml").string();
  std::ofstream(cfg) << small << "algorithm: ts\nlocal_ts: {method: exact}\n"
                     << "agents: {count: 2}\nobjective: {family: gp_box}\n";
  const auto r = fbosim_test::fbosim("config " + cfg);
  CHECK(r.status == 1);
  CHECK(r.text.find("local_ts.method: exact samples the GP on every point of a finite domain") !=
        std::string::npos);
  fs::remove_all(dir);
}

#ifdef FBOSIM_PYTHON_PLUGIN_PATH
// Experiments of a sweep start their families at once: the embedded interpreter's first use from
// several threads (which crashed fbosim before pybind11's internals were made at start-up).
TEST_CASE("python objectives in a sweep of parallel points start the interpreter once") {
  const fs::path dir = fs::temp_directory_path() / ("fbosim-pysweep-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "sweep_objective.py") << "def f(x, agent, seed):\n    return -sum(x)\n";
  const std::string cfg = (dir / "s.yaml").string();
  std::ofstream(cfg) << "algorithm: ts\nrounds: 2\nruns: 1\nagents: {count: 2, init_points: 1}\n"
                        "objective: {family: python, inputs: 2, callable: 'sweep_objective:f'}\n";
  for (int k = 0; k < 5; ++k) {
    const auto r = fbosim_test::fbosim_with_env(
        "PYTHONPATH=" + dir.string(), "sweep " + cfg +
                                          " --quiet --force --allow-exec --grid seed=1,2,3,4 "
                                          "--jobs 4 --out " +
                                          (dir / "out").string());
    INFO(r.text);
    REQUIRE(r.status == 0);
  }
  fs::remove_all(dir);
}
#endif
