#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "sim/config/config_loader.hpp"
#include "sim/output/build_info.hpp"
#include "sim/output/directory_lock.hpp"
#include "sim/output/interrupt.hpp"
#include "sim/output/provenance.hpp"
#include "sim/run/experiment_runner.hpp"
#include "sim/run/run_checkpoint.hpp"

using namespace fbosim::config;
using namespace fbosim::output;
using namespace fbosim::run;
namespace fs = std::filesystem;

namespace {
const char* kTiny =
    "rounds: 4\nruns: 3\nseed: 7\n"
    "objective: {family: gp_grid, grid_points: 100, lengthscale: 0.05}\n"
    "agents: {count: 6, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 10, lengthscale: 0.05}\nlocal_ts: {features: 10}\n"
    "server: {dp: true, sampling_rate: 0.5, noise_multiplier: 1, clip_norm: 5, delta_rule: "
    "paper}\n";  // the papers' N^-1.1 (issue 39: the default is min(1e-5, 1/(10 N)))

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string fresh(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("fbosim_prov_" + name);
  fs::remove_all(p);
  return p.string();
}

// An observer (RunOptions::on_round) that interrupts, as Ctrl-C would, the first round of the
// first run computed after `runs` computed runs (runs reused from checkpoints report only their
// last round).
std::function<void(int, int, int)> stop_after(int runs) {
  return [runs, computing = std::set<int>(), computed = 0](int run, int round, int rounds) mutable {
    if (round < rounds) {
      if (computing.insert(run).second && computed >= runs) throw Interrupted();
    } else if (computing.count(run)) {
      ++computed;
    }
  };
}

void run_to(const std::string& dir, const std::vector<std::string>& sets = {}, bool force = false,
            std::function<void(int, int, int)> on_round = {}) {
  const LoadedConfig c = load_config_text(kTiny, "tiny.yaml", "tiny", sets);
  RunOptions o;
  o.threads = 2;
  o.out_dir = dir;
  o.progress = false;
  o.force = force;
  o.on_round = std::move(on_round);
  run_experiment(c.spec, c.resolved, o);
}

// The cells of column `name` of a CSV without quoted fields.
std::vector<std::string> column(const std::string& path, const std::string& name) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream hs(line);
  for (std::string c; std::getline(hs, c, ',');) header.push_back(c);
  const auto at = std::find(header.begin(), header.end(), name) - header.begin();
  std::vector<std::string> out;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream rs(line);
    for (std::string c; std::getline(rs, c, ',');) cells.push_back(c);
    if (line.back() == ',') cells.push_back("");
    out.push_back(static_cast<std::size_t>(at) < cells.size() ? cells[at] : "<missing>");
  }
  return out;
}

}  // namespace

TEST_CASE("config.resolved.yaml holds delta = N^-1.1 as a number and reloads to itself") {
  const LoadedConfig c = load_config_text(kTiny, "tiny.yaml", "tiny", {});
  REQUIRE(c.resolved["server"]["delta"].IsNull());  // the config's `~`
  const std::string text = resolved_config_text(c.spec, c.resolved);
  const YAML::Node y = YAML::Load(text);
  // 6^-1.1 = exp(-1.1 ln 6), computed independently of ExperimentSpec::delta().
  CHECK(y["server"]["delta"].as<double>() == Approx(std::exp(-1.1 * std::log(6.0))).epsilon(1e-14));
  // `fbosim run config.resolved.yaml` loads it and resolves it to the same text.
  const LoadedConfig again = load_config_text(text, "config.resolved.yaml", "x", {});
  CHECK(resolved_config_text(again.spec, again.resolved) == text);
  CHECK(again.spec.delta() == c.spec.delta());
  // An explicit delta is kept as given.
  const LoadedConfig d = load_config_text(kTiny, "tiny.yaml", "tiny", {"server.delta=0.001"});
  CHECK(YAML::Load(resolved_config_text(d.spec, d.resolved))["server"]["delta"].as<double>() ==
        0.001);
}

TEST_CASE("server.csv and summary.csv carry delta next to epsilon, empty without DP") {
  const std::string dir = fresh("delta");
  run_to(dir);
  const double delta = std::exp(-1.1 * std::log(6.0));
  for (const char* f : {"/server.csv", "/summary.csv"})
    for (const std::string& cell : column(dir + f, "delta"))
      CHECK(std::stod(cell) == Approx(delta).epsilon(1e-14));
  CHECK(slurp(dir + "/summary.csv")
            .rfind("round,mean_regret,se_regret,mean_best_f,se_best_f,"
                   "epsilon,delta,delta_times_n,n\n",
                   0) == 0);
  const std::string nodp = fresh("delta_nodp");
  run_to(nodp, {"algorithm=fts_de", "server.dp=false"});
  for (const char* f : {"/server.csv", "/summary.csv"})
    for (const std::string& cell : column(nodp + f, "delta")) CHECK(cell.empty());
}

TEST_CASE("provenance.yaml records the build, command line, seed, threads and delta") {
  const std::string dir = fresh("record");
  run_to(dir);
  const YAML::Node p = YAML::LoadFile(dir + "/provenance.yaml");
  CHECK(p["version"].as<std::string>() == build_info().version);
  CHECK(p["commit"].as<std::string>() == build_info().commit);
  CHECK(p["modified"].as<bool>() == build_info().modified);
  CHECK(p["build"].as<std::string>() == build_info().build_id);
  CHECK(p["seed"].as<int>() == 7);
  CHECK(p["threads"].as<int>() == 2);
  CHECK(p["runs"].as<int>() == 3);
  CHECK(p["delta"].as<double>() == Approx(std::exp(-1.1 * std::log(6.0))).epsilon(1e-14));
  CHECK(p["accountant"].as<std::string>() == "moments");
  CHECK(p["command"].as<std::string>().find("test_sim_run") != std::string::npos);
  CHECK(p["started"].as<std::string>().size() == 20);
  CHECK(p["resumed_runs"].as<int>() == 0);
}

TEST_CASE("a different config is refused in an existing results directory unless forced") {
  const std::string dir = fresh("clash");
  run_to(dir);
  const std::string before = slurp(dir + "/summary.csv");
  try {
    run_to(dir, {"server.noise_multiplier=2"});
    FAIL("the results of another config were replaced");
  } catch (const ResultsClash& e) {
    const std::string what = e.what();
    CHECK(what.find("server.noise_multiplier: 1 there, 2 here") != std::string::npos);
    CHECK(what.find("--force") != std::string::npos);
  }
  CHECK(slurp(dir + "/summary.csv") == before);
  run_to(dir);  // the same config: a re-run
  CHECK(slurp(dir + "/summary.csv") == before);
  run_to(dir, {"server.noise_multiplier=2"}, true);
  CHECK(slurp(dir + "/summary.csv") != before);
  CHECK(YAML::LoadFile(dir + "/config.resolved.yaml")["server"]["noise_multiplier"].as<double>() ==
        2);
  // Results without config.resolved.yaml may be of any config: refused too.
  fs::remove(dir + "/config.resolved.yaml");
  CHECK_THROWS_AS(run_to(dir), ResultsClash);
  // Written before delta was recorded (`~`), the same config is still the same config.
  const std::string old = fresh("clash_old");
  run_to(old);
  const LoadedConfig c = load_config_text(kTiny, "tiny.yaml", "tiny", {});
  YAML::Emitter e;
  e << c.resolved;
  std::ofstream(old + "/config.resolved.yaml") << e.c_str() << "\n";
  CHECK_NOTHROW(run_to(old));
}

TEST_CASE("a run checkpoint reads back to the same run, NaN regrets included") {
  RunResult r;
  r.run = 2;
  r.dim = 2;
  r.trace_csv = "2,0,0,0.1,0.2,1.5,1.4,1.4,,init\n";
  r.release_csv = "2,0,best_value,laplace,1,0.001,3.5,0.9,0.8,,,0.85,,0\nend\n";
  r.server_columns = {"received", "selected", "clipped", "noise_std"};
  r.server.push_back(
      {0, 10, {"6", "3", "1", "0.03333333333333333"}, 0.123456789012345678, {0.2, 1e-300}});
  r.final_epsilon = 0.9;
  r.best_f = Eigen::MatrixXd::Constant(2, 3, 1.0 / 3);
  r.regret = Eigen::MatrixXd::Constant(2, 3, std::nan(""));
  r.epsilon = {0, 0.7};
  r.extra_epsilon = {{0, 0.5}};
  r.messages = 6;
  r.clipped = 1;
  r.fallbacks = 4;
  const std::string text = checkpoint_text(r, "key");
  const auto back = read_checkpoint(text, 2, "key").result;
  REQUIRE(back);
  CHECK(checkpoint_text(*back, "key") == text);
  CHECK(back->server[0].stats == r.server[0].stats);
  CHECK(back->server_columns == r.server_columns);
  CHECK(back->final_epsilon == 0.9);
  CHECK(back->best_f(1, 2) == 1.0 / 3);
  CHECK(std::isnan(back->regret(0, 0)));
  CHECK(back->trace_csv == r.trace_csv);
  CHECK(back->release_csv == r.release_csv);  // even a row that reads "end"
  // A truncated checkpoint is not a checkpoint.
  CHECK_FALSE(read_checkpoint(text.substr(0, text.size() - 5), 2, "key").result);
  CHECK_FALSE(read_checkpoint("", 2, "key").result);
}

TEST_CASE("an interrupted run resumes from its finished runs to byte-identical outputs") {
  const std::string whole = fresh("whole");
  run_to(whole);
  const std::string dir = fresh("resume");
  try {
    run_to(dir, {}, false, stop_after(1));
    FAIL("the observer did not interrupt the run");
  } catch (const Interrupted& e) {
    CHECK(std::string(e.what()).find("1 of 3 runs finished") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(dir + "/summary.csv"));
  CHECK(fs::exists(dir + "/.fbosim-partial/run-0.ckpt"));
  CHECK_FALSE(fs::exists(dir + "/.fbosim-partial/run-1.ckpt"));
  run_to(dir);
  for (const char* f : {"/trace.csv", "/server.csv", "/summary.csv", "/config.resolved.yaml"}) {
    INFO(f);
    CHECK(slurp(dir + f) == slurp(whole + f));
  }
  CHECK(YAML::LoadFile(dir + "/provenance.yaml")["resumed_runs"].as<int>() == 1);
  CHECK_FALSE(fs::exists(dir + "/.fbosim-partial"));
}

TEST_CASE("an interrupted asynchronous run resumes to byte-identical outputs, agents.csv too") {
  const std::vector<std::string> sets = {
      "schedule.kind=buffered", "schedule.buffer=2", "timing.duration.model=exponential",
      "timing.tiers.fractions=[0.2]", "timing.tiers.slowdowns=[10]"};
  const std::string whole = fresh("async_whole");
  run_to(whole, sets);
  const std::string dir = fresh("async_resume");
  CHECK_THROWS_AS(run_to(dir, sets, false, stop_after(1)), Interrupted);
  REQUIRE(fs::exists(dir + "/.fbosim-partial/run-0.ckpt"));
  run_to(dir, sets);
  for (const char* f : {"/trace.csv", "/server.csv", "/summary.csv", "/agents.csv"}) {
    INFO(f);
    CHECK(slurp(dir + f) == slurp(whole + f));
  }
  CHECK(YAML::LoadFile(dir + "/provenance.yaml")["resumed_runs"].as<int>() == 1);
}

TEST_CASE("checkpoints of another config are not reused") {
  const std::string dir = fresh("other_ckpt");
  CHECK_THROWS_AS(run_to(dir, {"server.noise_multiplier=3"}, false, stop_after(2)), Interrupted);
  REQUIRE(fs::exists(dir + "/.fbosim-partial/run-1.ckpt"));
  CHECK(RunCheckpoints(dir, "another key").discarded());
  CHECK_FALSE(RunCheckpoints(dir, "another key").discarded());  // nothing left to discard
  // Interrupted again with the noise of 3, then resumed with the config's noise of 1.
  CHECK_THROWS_AS(run_to(dir, {"server.noise_multiplier=3"}, false, stop_after(2)), Interrupted);
  run_to(dir);
  const std::string whole = fresh("other_whole");
  run_to(whole);
  CHECK(slurp(dir + "/server.csv") == slurp(whole + "/server.csv"));
  CHECK(YAML::LoadFile(dir + "/provenance.yaml")["resumed_runs"].as<int>() == 0);
}

TEST_CASE("a run that fails before any run finished leaves no directory it created") {
  const std::string root = fresh("nothing_kept");
  CHECK_THROWS_AS(run_to(root + "/a/b", {}, false, stop_after(0)), Interrupted);
  CHECK_FALSE(fs::exists(root));
  // An existing directory is kept, with nothing added.
  fs::create_directories(root);
  CHECK_THROWS_AS(run_to(root, {}, false, stop_after(0)), Interrupted);
  CHECK(fs::is_empty(root));
}

TEST_CASE("stale temporaries of a killed run are removed by the next run") {
  const std::string dir = fresh("stale_tmp");
  fs::create_directories(dir);
  for (const char* f : {"/trace.csv.tmp", "/summary.csv.tmp", "/config.resolved.yaml.tmp"})
    std::ofstream(dir + f).flush();  // 0-byte files, as a SIGKILL leaves without O_TMPFILE
  run_to(dir);
  for (const auto& e : fs::recursive_directory_iterator(dir)) CHECK(e.path().extension() != ".tmp");
  CHECK(fs::file_size(dir + "/summary.csv") > 0);
}

TEST_CASE("a run refused because another process holds the directory leaves that one's files") {
  // The holder has begun its first run: its checkpoint folder exists and holds no finished run
  // yet. The refused run used to remove that folder on its way out (its clean-up after a
  // failure), and the holder then failed writing its first checkpoint.
  const std::string dir = fresh("busy");
  fs::create_directories(dir + "/" + RunCheckpoints::kFolder);
  std::ofstream(dir + "/" + RunCheckpoints::kFolder + "/key") << "the holder's key\n";
  {
    const DirectoryLock holder(dir);  // flock: a second open file description is refused
    CHECK_THROWS_AS(run_to(dir), DirectoryBusy);
    CHECK_THROWS_AS(run_to(dir, {}, true), DirectoryBusy);
  }
  CHECK(slurp(dir + "/" + RunCheckpoints::kFolder + "/key") == "the holder's key\n");
}

// Issue 39 sec. 3: a commit cut short between two of its files (a SIGKILL, a failed rename)
// leaves the commit marker, some files named and no config.resolved.yaml. The same config
// resumes it; another config is refused, as its complete results would be.
TEST_CASE("a run whose commit was cut short between two files resumes to byte-identical outputs") {
  const std::string whole = fresh("commit_whole");
  run_to(whole);
  const std::string dir = fresh("commit_cut");
  CHECK_THROWS_AS(run_to(dir, {}, false, stop_after(2)), Interrupted);  // runs 0 and 1 kept
  // What the cut leaves: the marker (the set's config) and the first file of the set.
  fs::copy_file(whole + "/config.resolved.yaml", dir + "/" + kCommitMarker);
  fs::copy_file(whole + "/trace.csv", dir + "/trace.csv");
  const std::string other = fresh("commit_cut_other");
  fs::create_directories(other);
  for (const char* f : {"/trace.csv", "/server.csv"}) fs::copy_file(whole + f, other + f);
  fs::copy_file(whole + "/config.resolved.yaml", other + "/" + kCommitMarker);
  run_to(dir);
  for (const char* f : {"/trace.csv", "/server.csv", "/summary.csv", "/config.resolved.yaml"}) {
    INFO(f);
    CHECK(slurp(dir + f) == slurp(whole + f));
  }
  CHECK(YAML::LoadFile(dir + "/provenance.yaml")["resumed_runs"].as<int>() == 2);
  CHECK_FALSE(fs::exists(dir + "/" + kCommitMarker));
  CHECK_FALSE(fs::exists(dir + "/.fbosim-partial"));
  // Another config's incomplete set: refused unless --force, naming the marker and the keys.
  CHECK_THROWS_WITH(run_to(other, {"server.noise_multiplier=2"}),
                    Catch::Contains("incomplete results of a different config") &&
                        Catch::Contains(kCommitMarker) &&
                        Catch::Contains("server.noise_multiplier: 1 there, 2 here"));
  CHECK(slurp(other + "/trace.csv") == slurp(whole + "/trace.csv"));
  run_to(other, {"server.noise_multiplier=2"}, true);
  CHECK_FALSE(fs::exists(other + "/" + kCommitMarker));
  CHECK(fs::exists(other + "/config.resolved.yaml"));
}

// Issue 39 sec. 3: results are never written or read through a symbolic link (a planted link
// would send them into another folder), even with --force.
TEST_CASE("a results directory that is a symbolic link, or holds one, is refused") {
  const std::string root = fresh("linked");
  const std::string foreign = root + "/foreign";
  fs::create_directories(foreign);
  std::ofstream(foreign + "/theirs.txt") << "not fbosim's\n";
  fs::create_directory_symlink(foreign, root + "/out");
  for (bool force : {false, true}) {
    CHECK_THROWS_WITH(run_to(root + "/out", {}, force),
                      Catch::Contains(root + "/out is a symbolic link (to " + foreign + ")"));
    CHECK_THROWS_AS(run_to(root + "/out/", {}, force), LinkedResults);
  }
  CHECK(fs::is_symlink(root + "/out"));
  // A result file planted as a link into another folder.
  fs::create_directories(root + "/real");
  fs::create_symlink(foreign + "/theirs.txt", root + "/real/summary.csv");
  CHECK_THROWS_WITH(run_to(root + "/real"),
                    Catch::Contains(root + "/real/summary.csv is a symbolic link"));
  // Nothing was written into the foreign folder.
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(foreign))
    names.push_back(e.path().filename().string());
  CHECK(names == std::vector<std::string>{"theirs.txt"});
  CHECK(slurp(foreign + "/theirs.txt") == "not fbosim's\n");
}

TEST_CASE("provenance.yaml records PO-GP-UCB's curator branch, other algorithms record none") {
  const auto po = [](const std::string& epsilon) {
    return "algorithm: po_gp_ucb\nrounds: 3\nruns: 2\n"
           "objective: {family: gp_grid2d, grid_side: 10, lengthscale: 1.25, input_norm: 25}\n"
           "agents: {count: 1, init_points: 1}\ncurator: {epsilon: " +
           epsilon + ", delta: 1.0e-5, r: 4}\n";
  };
  const auto facts = [](const std::string& text, const std::string& name) {
    const std::string dir = fresh(name);
    const LoadedConfig c = load_config_text(text, name + ".yaml", name, {});
    RunOptions o;
    o.threads = 1;
    o.out_dir = dir;
    o.progress = false;
    run_experiment(c.spec, c.resolved, o);
    const YAML::Node p = YAML::LoadFile(dir + "/provenance.yaml");
    fs::remove_all(dir);
    return p["algorithm_facts"];
  };
  const YAML::Node f = facts(po("3"), "po_facts");
  REQUIRE(f.IsMap());
  CHECK(f["curator.branch"].as<std::string>() == "else");  // omega(3, 1e-5, 4) ~ 580 > sigma_min
  CHECK(f["curator.sigma_min"].as<double>() > 0);
  CHECK(f["curator.omega"].as<double>() > f["curator.sigma_min"].as<double>());
  CHECK(f["curator.lift"].as<std::string>() == "paper");
  CHECK(facts(po("1000"), "po_facts_if")["curator.branch"].as<std::string>() == "if");
  CHECK_FALSE(facts(kTiny, "dp_facts").IsDefined());
}
