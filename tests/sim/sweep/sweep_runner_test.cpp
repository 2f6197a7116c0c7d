#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <vector>

#include "sim/config/config_loader.hpp"
#include "sim/output/directory_lock.hpp"
#include "sim/output/provenance.hpp"
#include "sim/run/experiment_runner.hpp"
#include "sim/sweep/sweep_merge.hpp"
#include "sim/sweep/sweep_runner.hpp"

using namespace fbosim::config;
using namespace fbosim::output;
using namespace fbosim::run;
using namespace fbosim::sweep;
namespace fs = std::filesystem;

namespace {
// Tiny: 4 agents, 4 rounds, 2 x 2 points; each run takes milliseconds.
const char* kTiny =
    "rounds: 4\nruns: 2\nseed: 5\n"
    "objective: {family: gp_grid, grid_points: 100, lengthscale: 0.05}\n"
    "agents: {count: 4, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 10, lengthscale: 0.05}\nlocal_ts: {features: 10}\n"
    "server: {dp: true, sampling_rate: 0.5, noise_multiplier: 1, clip_norm: 0.5}\n";

const SweepPlan& tiny_plan() {
  static const SweepPlan plan(
      {{"server.noise_multiplier", {"1", "2"}}, {"server.sampling_rate", {"0.5", "1"}}});
  return plan;
}

std::string fresh_dir(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("fbosim_sweep_" + name);
  fs::remove_all(p);
  return p.string();
}

SweepReport sweep(const std::string& dir, const std::vector<std::string>& sets = {},
                  ShardSpec shard = {}, const std::string& build = "test-1", bool force = false) {
  SweepOptions o;
  o.out_dir = dir;
  o.jobs = 2;
  o.threads = 1;
  o.shard = shard;
  o.build = build;
  o.force = force;
  o.progress = false;
  return run_sweep(kTiny, "tiny.yaml", "tiny", sets, tiny_plan(), o);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A CSV without quoted fields (the simulator's own outputs) as rows of cells.
std::vector<std::vector<std::string>> plain_csv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(cells);
  }
  return rows;
}

// sweep.csv rows keyed by column name (dir holds commas, so it is quoted: read it apart).
std::vector<std::map<std::string, std::string>> sweep_rows(const std::string& path) {
  std::vector<std::map<std::string, std::string>> out;
  std::ifstream in(path);
  std::string header, line;
  std::getline(in, header);
  std::vector<std::string> names;
  {
    std::stringstream ss(header);
    std::string c;
    while (std::getline(ss, c, ',')) names.push_back(c);
  }
  while (std::getline(in, line)) {
    const auto quote = line.find(",\"");
    REQUIRE(quote != std::string::npos);
    std::map<std::string, std::string> row;
    std::stringstream ss(line.substr(0, quote) + ",");
    std::string c;
    for (std::size_t k = 0; k + 1 < names.size(); ++k) {
      std::getline(ss, c, ',');
      row[names[k]] = c;
    }
    row["dir"] = line.substr(quote + 2, line.size() - quote - 3);
    out.push_back(row);
  }
  return out;
}
std::vector<std::map<std::string, std::string>> sweep_rows_of(const std::string& text) {
  const std::string path = (fs::temp_directory_path() / "fbosim_sweep_rows_of.csv").string();
  std::ofstream(path) << text;
  return sweep_rows(path);
}
}  // namespace

TEST_CASE("a sweep writes one run per point and sweep.csv rows from their outputs") {
  const std::string dir = fresh_dir("rows");
  const SweepReport r = sweep(dir);
  CHECK(r.ran == 4);
  CHECK(r.skipped == 0);
  const auto rows = sweep_rows(dir + "/sweep.csv");
  REQUIRE(rows.size() == 4);
  CHECK(plain_csv(dir + "/sweep.csv")[0].front() == "point");
  const char* nm[] = {"1", "1", "2", "2"};
  const char* q[] = {"0.5", "1", "0.5", "1"};
  for (std::size_t i = 0; i < 4; ++i) {
    const auto& row = rows[i];
    CHECK(row.at("point") == std::to_string(i));
    CHECK(row.at("server.noise_multiplier") == nm[i]);
    CHECK(row.at("server.sampling_rate") == q[i]);
    const std::string point = dir + "/" + row.at("dir");
    // The point's outputs are those of `fbosim run` with the same overrides.
    const std::string direct = fresh_dir("direct");
    const LoadedConfig c = load_config_text(kTiny, "tiny.yaml", "tiny",
                                            {std::string("server.noise_multiplier=") + nm[i],
                                             std::string("server.sampling_rate=") + q[i]});
    RunOptions o;
    o.threads = 2;
    o.out_dir = direct;
    o.progress = false;
    run_experiment(c.spec, c.resolved, o);
    for (const char* f : {"trace.csv", "server.csv", "summary.csv", "config.resolved.yaml"})
      CHECK(slurp(point + "/" + f) == slurp(direct + "/" + f));
    // Utility and epsilon: the last row of summary.csv.
    const auto summary = plain_csv(point + "/summary.csv");
    const auto& last = summary.back();
    for (std::size_t k = 0; k < summary[0].size(); ++k) {
      const std::string& col = summary[0][k];
      if (col == "mean_regret" || col == "se_regret" || col == "mean_best_f" ||
          col == "se_best_f" || col.rfind("epsilon", 0) == 0)
        CHECK(row.at(col) == last[k]);
    }
    // Clipped fraction: sum of clipped over sum of selected in server.csv.
    const auto server = plain_csv(point + "/server.csv");
    double clipped = 0, selected = 0;
    for (std::size_t k = 1; k < server.size(); ++k) {
      selected += std::stod(server[k][4]);
      clipped += std::stod(server[k][5]);
    }
    REQUIRE(selected > 0);
    CHECK(std::stod(row.at("clipped_fraction")) == Approx(clipped / selected).epsilon(1e-12));
    CHECK(std::stod(row.at("seconds")) >= 0);
  }
}

TEST_CASE("points share common random numbers so round 0 is the same at every noise level") {
  const std::string dir = fresh_dir("crn");
  sweep(dir);
  auto round0 = [](const std::string& path) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& r : plain_csv(path))
      if (r.size() > 2 && r[2] == "0") rows.push_back(r);
    return rows;
  };
  const auto a = round0(dir + "/server.noise_multiplier=1,server.sampling_rate=0.5/trace.csv");
  const auto b = round0(dir + "/server.noise_multiplier=2,server.sampling_rate=0.5/trace.csv");
  CHECK(a.size() == 2 * 4 * 2);  // runs x agents x init points
  CHECK(a == b);
  // ... and the noise level does change the later rounds (the test could fail).
  CHECK(slurp(dir + "/server.noise_multiplier=1,server.sampling_rate=0.5/trace.csv") !=
        slurp(dir + "/server.noise_multiplier=2,server.sampling_rate=0.5/trace.csv"));
}

TEST_CASE("a re-run skips finished points and redoes changed or unfinished ones") {
  const std::string dir = fresh_dir("resume");
  sweep(dir);
  const std::string csv = slurp(dir + "/sweep.csv");
  std::map<std::string, fs::file_time_type> mtimes;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory()) mtimes[e.path().string()] = fs::last_write_time(e.path() / "trace.csv");
  REQUIRE(mtimes.size() == 4);

  SweepReport r = sweep(dir);
  CHECK(r.ran == 0);
  CHECK(r.skipped == 4);
  CHECK(slurp(dir + "/sweep.csv") == csv);
  for (const auto& [path, t] : mtimes) CHECK(fs::last_write_time(path + "/trace.csv") == t);

  // An interrupted point has no sweep.done (removed before it starts): it is redone.
  fs::remove(dir + "/server.noise_multiplier=2,server.sampling_rate=1/sweep.done");
  r = sweep(dir);
  CHECK(r.ran == 1);
  CHECK(r.skipped == 3);
  CHECK(slurp(dir + "/sweep.csv").size() == csv.size());

  // A changed config (here the number of rounds) is refused before anything runs, naming the
  // key and --force; with --force it redoes every point. Another build redoes every point.
  const std::string before = slurp(dir + "/sweep.csv");
  try {
    sweep(dir, {"rounds=5"});
    FAIL("a sweep replaced the results of another config");
  } catch (const ResultsClash& e) {
    CHECK(std::string(e.what()).find("rounds: 4 there, 5 here") != std::string::npos);
    CHECK(std::string(e.what()).find("--force") != std::string::npos);
  }
  CHECK(slurp(dir + "/sweep.csv") == before);
  r = sweep(dir, {"rounds=5"}, {}, "test-1", true);
  CHECK(r.ran == 4);
  // One more release: the rows now hold the larger epsilon of the new runs.
  CHECK(std::stod(sweep_rows(dir + "/sweep.csv")[0].at("epsilon")) >
        std::stod(sweep_rows_of(csv)[0].at("epsilon")));
  r = sweep(dir, {"rounds=5"}, {}, "test-2");
  CHECK(r.ran == 4);
  r = sweep(dir, {"rounds=5"}, {}, "test-2");
  CHECK(r.skipped == 4);
}

TEST_CASE("a second sweep on a locked directory is refused") {
  const std::string dir = fresh_dir("lock");
  {
    const DirectoryLock held(dir);
    CHECK_THROWS_WITH(sweep(dir),
                      Catch::Contains(dir + " is in use by another fbosim process (pid " +
                                      std::to_string(getpid())));
    CHECK_FALSE(fs::exists(dir + "/sweep.csv"));
  }
  CHECK(sweep(dir).ran == 4);  // released with its holder
}

TEST_CASE("a bad grid value fails before any point runs and names the point and the key") {
  const std::string dir = fresh_dir("bad");
  SweepOptions o;
  o.out_dir = dir;
  o.progress = false;
  const SweepPlan plan({{"server.clip_norm", {"1", "-2"}}});
  CHECK_THROWS_WITH(run_sweep(kTiny, "tiny.yaml", "tiny", {}, plan, o),
                    Catch::Contains("server.clip_norm=-2") && Catch::Contains("-2"));
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("shards merged equal the unsharded sweep and duplicates and gaps are handled") {
  const std::string dir = fresh_dir("shards");
  sweep(dir + "/all");
  for (int k = 1; k <= 3; ++k)
    CHECK(sweep(dir + "/shard-" + std::to_string(k), {}, {k, 3}).ran >= 1);
  const MergeReport m =
      merge_sweeps({dir + "/shard-1", dir + "/shard-2", dir + "/shard-3"}, dir + "/merged");
  CHECK(m.rows == 4);
  CHECK(m.missing.empty());
  const auto all = sweep_rows(dir + "/all/sweep.csv");
  const auto merged = sweep_rows(dir + "/merged/sweep.csv");
  REQUIRE(merged.size() == all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    auto a = all[i], b = merged[i];
    CHECK(fs::exists(fs::path(dir + "/merged") / b.at("dir") / "summary.csv"));
    CHECK(b.at("dir") == "../shard-" + std::to_string(i % 3 + 1) + "/" + a.at("dir"));
    for (auto* r : {&a, &b}) {
      r->erase("seconds");
      r->erase("dir");
    }
    CHECK(a == b);
  }
  // The same shard twice: the agreeing duplicates are dropped; a shard alone leaves gaps.
  const MergeReport twice = merge_sweeps({dir + "/shard-1", dir + "/shard-1"}, dir + "/twice");
  CHECK(twice.duplicates == 2);
  CHECK(twice.rows == 2);
  CHECK(twice.missing ==
        std::vector<std::string>{"server.noise_multiplier=1,server.sampling_rate=1",
                                 "server.noise_multiplier=2,server.sampling_rate=0.5"});
  // Shards of another grid are refused; so are disagreeing results for one point.
  SweepOptions o;
  o.out_dir = dir + "/other";
  o.progress = false;
  run_sweep(kTiny, "tiny.yaml", "tiny", {}, SweepPlan({{"seed", {"1", "2"}}}), o);
  CHECK_THROWS_WITH(merge_sweeps({dir + "/all", dir + "/other"}, dir + "/bad"),
                    Catch::Contains("not shards of the same sweep"));
  sweep(dir + "/rounds5", {"rounds=5"});
  CHECK_THROWS_WITH(merge_sweeps({dir + "/all", dir + "/rounds5"}, dir + "/bad"),
                    Catch::Contains("different results"));
  // Shards of different builds are refused (one sweep.csv, one build), creating nothing.
  sweep(dir + "/shard-1-other-build", {}, {1, 3}, "test-2");
  CHECK_THROWS_WITH(
      merge_sweeps({dir + "/shard-1-other-build", dir + "/shard-2", dir + "/shard-3"},
                   dir + "/mixed"),
      Catch::Contains("was made by build test-1") && Catch::Contains("by build test-2"));
  CHECK_FALSE(fs::exists(dir + "/mixed"));
  CHECK_FALSE(fs::exists(dir + "/bad"));
}

// --- issue #24, section 3: sweep points and merged points are verified before they are used

namespace {
const std::string kPoint = "server.noise_multiplier=1,server.sampling_rate=0.5";

// Captures stderr while `f` runs (the re-run lines).
template <typename F>
std::string stderr_of(F f) {
  const std::string path = (fs::temp_directory_path() / "fbosim_sweep_stderr.txt").string();
  std::fflush(stderr);
  const int saved = dup(2);
  FILE* file = std::freopen(path.c_str(), "w", stderr);
  REQUIRE(file);
  f();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  return slurp(path);
}
}  // namespace

TEST_CASE("a sweep re-runs, saying why, a point whose sweep.done or files do not verify") {
  const std::string dir = fresh_dir("verify");
  sweep(dir);
  const std::string csv = slurp(dir + "/sweep.csv");
  const std::string point = dir + "/" + kPoint,
                    other = dir + "/" + "server.noise_multiplier=2,server.sampling_rate=1";
  struct Fault {
    const char* name;
    std::function<void()> apply;
    std::string said;
  };
  const std::vector<Fault> faults = {
      {"garbage", [&] { std::ofstream(point + "/sweep.done") << "fingerprint x\nseconds abc\n"; },
       "its sweep.done is not a record fbosim writes (first line is not"},
      {"a bad duration",
       [&] {
         std::string t = slurp(point + "/sweep.done");
         t.replace(t.find("seconds ") + 8, std::string::npos, "-1\n");
         std::ofstream(point + "/sweep.done") << t;
       },
       "its sweep.done is not a record fbosim writes (seconds '-1' is not a duration)"},
      {"another point's record",
       [&] {
         fs::copy_file(other + "/sweep.done", point + "/sweep.done",
                       fs::copy_options::overwrite_existing);
       },
       "its config changed"},
      {"a missing file", [&] { fs::remove(point + "/server.csv"); }, "server.csv is missing"},
      {"an edited digit",
       [&] {
         std::string t = slurp(point + "/trace.csv");
         const auto at = t.find_first_of("123456789", t.find('\n'));
         t[at] = t[at] == '9' ? '1' : static_cast<char>(t[at] + 1);
         std::ofstream(point + "/trace.csv") << t;
       },
       "its files changed since the sweep wrote them"},
  };
  for (const Fault& f : faults) {
    INFO(f.name);
    f.apply();
    SweepReport r;
    const std::string said = stderr_of([&] { r = sweep(dir); });
    INFO(said);
    CHECK(said.find("fbosim: point " + kPoint + ": " + f.said) != std::string::npos);
    CHECK(said.find(": running it again") != std::string::npos);
    CHECK(r.ran == 1);
    CHECK(r.skipped == 3);
    CHECK(slurp(dir + "/sweep.csv").size() == csv.size());
  }
}

TEST_CASE("a sweep re-runs an asynchronous point whose time-grid outputs changed") {
  const std::vector<std::string> async{"schedule.kind=periodic", "schedule.period=1",
                                       "output.target_regret=0.5"};
  const std::string point = "server.noise_multiplier=1,server.sampling_rate=1";
  for (const char* file : {"summary_time.csv", "agents_time.csv", "time_to_target.csv"}) {
    INFO(file);
    const std::string dir = fresh_dir("async_verify");
    sweep(dir, async);
    REQUIRE(fs::exists(dir + "/" + point + "/" + file));
    CHECK(sweep(dir, async).ran == 0);
    std::ofstream(dir + "/" + point + "/" + file, std::ios::app) << "0\n";
    SweepReport r;
    const std::string said = stderr_of([&] { r = sweep(dir, async); });
    CHECK(said.find("its files changed since the sweep wrote them") != std::string::npos);
    CHECK(r.ran == 1);
  }
}

TEST_CASE("a sweep into a directory holding a sweep of other keys is refused unless forced") {
  const std::string dir = fresh_dir("foreign");
  SweepOptions o;
  o.out_dir = dir;
  o.progress = false;
  run_sweep(kTiny, "tiny.yaml", "tiny", {}, SweepPlan({{"seed", {"1", "2"}}}), o);
  const std::string csv = slurp(dir + "/sweep.csv");
  CHECK_THROWS_WITH(sweep(dir), Catch::Contains(dir + " holds a sweep of other keys (seed") &&
                                    Catch::Contains("--force"));
  CHECK(slurp(dir + "/sweep.csv") == csv);
  CHECK_FALSE(fs::exists(dir + "/.lock"));
  CHECK(sweep(dir, {}, {}, "test-1", true).ran == 4);
  // The same keys with other values: the same sweep, re-planned (its points are reused).
  o.force = false;
  const SweepPlan wider(
      {{"server.noise_multiplier", {"1", "2", "3"}}, {"server.sampling_rate", {"0.5", "1"}}});
  o.build = "test-1";
  o.jobs = 2;
  o.threads = 1;
  const SweepReport r = run_sweep(kTiny, "tiny.yaml", "tiny", {}, wider, o);
  CHECK(r.ran == 2);
  CHECK(r.skipped == 4);
}

TEST_CASE("merge verifies every point it merges and never replaces another sweep's sweep.csv") {
  const std::string dir = fresh_dir("merge_verify");
  for (int k = 1; k <= 2; ++k) sweep(dir + "/shard-" + std::to_string(k), {}, {k, 2});
  const std::vector<std::string> shards = {dir + "/shard-1", dir + "/shard-2"};
  const std::string point = dir + "/shard-1/" + kPoint;
  const auto refused = [&](const std::string& why) {
    INFO(why);
    CHECK_THROWS_WITH(merge_sweeps(shards, dir + "/m"),
                      Catch::Contains("point 0 (" + point + ") does not verify: " + why) &&
                          Catch::Contains("run that shard's sweep command again"));
    CHECK_FALSE(fs::exists(dir + "/m"));
  };
  const std::string done = slurp(point + "/sweep.done");
  std::ofstream(point + "/sweep.done") << "garbage\n";
  refused("its sweep.done is not a record fbosim writes");
  fs::remove(point + "/sweep.done");
  refused("it has no sweep.done");
  std::ofstream(point + "/sweep.done") << done;
  const std::string trace = slurp(point + "/trace.csv");
  fs::remove(point + "/trace.csv");
  refused("trace.csv is missing");
  std::ofstream(point + "/trace.csv") << trace;
  // A digit of the shard's sweep.csv row: the row no longer says what the point's files say.
  const std::string csv = slurp(dir + "/shard-1/sweep.csv");
  std::string edited = csv;
  const auto row = edited.find("\n0,") + 1;
  const auto at = edited.find_first_of(
      "123456789", edited.find(',', edited.find(',', edited.find(',', row) + 1) + 1));
  edited[at] = edited[at] == '9' ? '1' : static_cast<char>(edited[at] + 1);
  std::ofstream(dir + "/shard-1/sweep.csv") << edited;
  refused("its sweep.csv row has mean_regret");
  std::ofstream(dir + "/shard-1/sweep.csv") << csv;
  const MergeReport m = merge_sweeps(shards, dir + "/m");
  CHECK(m.rows == 4);
  CHECK(merge_sweeps(shards, dir + "/m").rows == 4);  // a merge output of the same sweep

  // A foreign folder: a sweep of other keys, a sweep.csv of unknown origin.
  SweepOptions o;
  o.out_dir = dir + "/foreign";
  o.progress = false;
  run_sweep(kTiny, "tiny.yaml", "tiny", {}, SweepPlan({{"seed", {"1", "2"}}}), o);
  const std::string foreign = slurp(dir + "/foreign/sweep.csv");
  CHECK_THROWS_WITH(
      merge_sweeps(shards, dir + "/foreign"),
      Catch::Contains(dir + "/foreign holds a sweep of other keys") && Catch::Contains("--force"));
  CHECK(slurp(dir + "/foreign/sweep.csv") == foreign);
  CHECK_FALSE(fs::exists(dir + "/foreign/.lock"));
  fs::create_directories(dir + "/unknown");
  std::ofstream(dir + "/unknown/sweep.csv") << "a,b\n1,2\n";
  CHECK_THROWS_WITH(merge_sweeps(shards, dir + "/unknown"),
                    Catch::Contains("holds a sweep.csv without sweep_plan.csv"));
  CHECK(slurp(dir + "/unknown/sweep.csv") == "a,b\n1,2\n");
  CHECK(merge_sweeps(shards, dir + "/foreign", true).rows == 4);
  CHECK(slurp(dir + "/foreign/sweep.csv") != foreign);
}

TEST_CASE("merge refuses shards of different sweep commands until the odd one is re-run") {
  const std::string dir = fresh_dir("merge_commands");
  const std::vector<std::string> shards = {dir + "/shard-1", dir + "/shard-2"};
  sweep(shards[0], {}, {1, 2});
  sweep(shards[1], {"rounds=5"}, {2, 2});  // another --set: other configs
  CHECK_THROWS_WITH(
      merge_sweeps(shards, dir + "/m"),
      Catch::Contains("were made by different sweep commands") && Catch::Contains("--set"));
  CHECK_FALSE(fs::exists(dir + "/m"));
  sweep(shards[1], {}, {2, 2}, "test-1", true);  // shard 2 again with shard 1's command
  CHECK(merge_sweeps(shards, dir + "/m").rows == 4);
  // A comment added to the config is another command too: re-running shard 1 with it reuses
  // its points (the same configs) and records the new command; back with the old, they merge.
  SweepOptions o;
  o.out_dir = shards[0];
  o.shard = {1, 2};
  o.build = "test-1";
  o.progress = false;
  CHECK(run_sweep(std::string(kTiny) + "# edited\n", "tiny.yaml", "tiny", {}, tiny_plan(), o)
            .skipped == 2);
  CHECK_THROWS_WITH(merge_sweeps(shards, dir + "/m"), Catch::Contains("different sweep commands"));
  CHECK(run_sweep(kTiny, "tiny.yaml", "tiny", {}, tiny_plan(), o).skipped == 2);
  CHECK(merge_sweeps(shards, dir + "/m").rows == 4);
}

TEST_CASE("choose_jobs keeps jobs x threads within the cores unless both are given") {
  auto j = choose_jobs(0, 0, 30, 16);
  CHECK((j.jobs == 16 && j.threads == 1 && !j.oversubscribed));
  j = choose_jobs(0, 0, 4, 16);
  CHECK((j.jobs == 4 && j.threads == 4 && !j.oversubscribed));
  j = choose_jobs(0, 4, 30, 16);
  CHECK((j.jobs == 4 && j.threads == 4 && !j.oversubscribed));
  j = choose_jobs(2, 0, 30, 16);
  CHECK((j.jobs == 2 && j.threads == 8 && !j.oversubscribed));
  j = choose_jobs(4, 2, 30, 2);
  CHECK((j.jobs == 4 && j.threads == 2 && j.oversubscribed));
  j = choose_jobs(8, 1, 3, 16);
  CHECK(j.jobs == 3);
}

// Issue 39 sec. 3: a point directory planted as a link to another folder is refused before any
// point runs (even with --force), and nothing is written through it.
TEST_CASE("a sweep refuses a point directory planted as a symbolic link") {
  const std::string dir = fresh_dir("linked_point");
  const std::string foreign = dir + "/foreign";
  fs::create_directories(foreign);
  std::ofstream(foreign + "/theirs.txt") << "not fbosim's\n";
  fs::create_directories(dir + "/s");
  const std::string point = dir + "/s/server.noise_multiplier=2,server.sampling_rate=1";
  fs::create_directory_symlink(foreign, point);
  for (bool force : {false, true}) {
    CHECK_THROWS_WITH(
        sweep(dir + "/s", {}, {}, "test-1", force),
        Catch::Contains("sweep point server.noise_multiplier=2,server.sampling_rate=1") &&
            Catch::Contains(point + " is a symbolic link (to " + foreign + ")"));
  }
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(foreign))
    names.push_back(e.path().filename().string());
  CHECK(names == std::vector<std::string>{"theirs.txt"});
  CHECK_FALSE(fs::exists(dir + "/s/server.noise_multiplier=1,server.sampling_rate=0.5"));
}

// Issue 39 sec. 3: a merge with missing points fails before it writes anything.
TEST_CASE("a merge with missing points writes nothing unless allowed") {
  const std::string dir = fresh_dir("merge_missing");
  sweep(dir + "/shard-1", {}, {1, 2});
  try {
    merge_sweeps({dir + "/shard-1"}, dir + "/m/n", false, false);
    FAIL("an incomplete merge was not refused");
  } catch (const MergeIncomplete& e) {
    CHECK(e.report().missing.size() == 2);
    CHECK_THAT(e.what(), Catch::Contains("2 point(s) missing (of 4 in the plan)") &&
                             Catch::Contains("nothing was written") &&
                             Catch::Contains("server.noise_multiplier=1,server.sampling_rate=1"));
  }
  CHECK_FALSE(fs::exists(dir + "/m"));
  // Into an existing directory: nothing added to it.
  fs::create_directories(dir + "/e");
  CHECK_THROWS_AS(merge_sweeps({dir + "/shard-1"}, dir + "/e", false, false), MergeIncomplete);
  CHECK(fs::is_empty(dir + "/e"));
  const MergeReport allowed = merge_sweeps({dir + "/shard-1"}, dir + "/m", false, true);
  CHECK(allowed.missing.size() == 2);
  CHECK(fs::exists(dir + "/m/sweep.csv"));
  CHECK(fs::exists(dir + "/m/sweep_plan.csv"));
}
