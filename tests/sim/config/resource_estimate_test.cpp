// The resource check (issue 24 sec. 4): memory is compared with what this process may use on
// this machine, work is turned into a time.
#include <catch2/catch.hpp>

#include <unistd.h>

#include "sim/config/config_loader.hpp"
#include "sim/config/resource_estimate.hpp"

using namespace fbosim::config;

namespace {
constexpr double kGiB = 1ull << 30;
}

TEST_CASE("the memory limit is the least of the machine, the cgroup and the ulimits") {
  const MemoryLimit machine = memory_limit_from(24 * kGiB, "max", -1, -1);
  CHECK(machine.bytes == 24 * kGiB);
  CHECK_THAT(machine.what, Catch::Contains("machine's memory") && Catch::Contains("24 GiB"));
  // A cgroup v2 limit of 8 GiB (memory.max holds bytes).
  const MemoryLimit cgroup = memory_limit_from(24 * kGiB, "8589934592", -1, -1);
  CHECK(cgroup.bytes == 8 * kGiB);
  CHECK_THAT(cgroup.what, Catch::Contains("cgroup") && Catch::Contains("8 GiB"));
  // ulimit -v 1048576 (kB) is RLIMIT_AS = 1 GiB; ulimit -d likewise.
  const MemoryLimit as = memory_limit_from(24 * kGiB, "8589934592", kGiB, -1);
  CHECK(as.bytes == kGiB);
  CHECK_THAT(as.what, Catch::Contains("ulimit -v"));
  CHECK_THAT(memory_limit_from(24 * kGiB, "", 2 * kGiB, kGiB / 2).what,
             Catch::Contains("ulimit -d"));
  // Limits above the machine's memory (cgroup v1's "unlimited" 2^63 - 4096) change nothing.
  CHECK(memory_limit_from(24 * kGiB, "9223372036854771712", 48 * kGiB, -1).bytes == 24 * kGiB);
  // This process: at most the physical memory sysconf reports.
  const double physical = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  CHECK(memory_limit().bytes > 0);
  CHECK(memory_limit().bytes <= physical);
}

TEST_CASE("durations are printed in the unit a reader expects") {
  CHECK(duration_text(42) == "42 s");
  CHECK(duration_text(600) == "10 minutes");
  CHECK(duration_text(3 * 3600) == "3.0 hours");
  CHECK(duration_text(10 * 86400) == "10 days");
  CHECK(duration_text(3.4 * 365.25 * 86400) == "3.4 years");
}

TEST_CASE("the refusal compares memory with the limit and gives work as a time") {
  ResourceEstimate e;
  e.memory.push_back({30 * kGiB, "agents.count = 7 (the big part)"});
  e.memory.push_back({kGiB, "the small part"});
  e.work.push_back({1e10, "some work"});
  const MemoryLimit limit{24 * kGiB, "the machine's memory, 24 GiB"};
  const std::string why = resource_refusal(e, limit);
  CHECK_THAT(why, Catch::Contains("31 GiB in memory") &&
                      Catch::Contains("the machine's memory, 24 GiB") &&
                      Catch::Contains("agents.count = 7 (the big part)"));
  CHECK(resource_refusal(e, {32 * kGiB, "more"}).empty());
  // 1e18 operations at kFlopsPerCoreSecond: 1e18 / 3.3e9 s = 3.03e8 s = 9.60 years of one core.
  e.work.push_back({1e18, "rounds = 1e9 (the huge part)"});
  const std::string slow = resource_refusal(e, {32 * kGiB, "more"});
  CHECK_THAT(slow, Catch::Contains("floating-point operations") &&
                       Catch::Contains("9.6 years on one core") &&
                       Catch::Contains("rounds = 1e9 (the huge part)"));
  // Time on k threads: the work over k cores at the measured rate.
  ResourceEstimate small;
  small.work.push_back({20 * kFlopsPerCoreSecond, "w"});
  CHECK(estimated_seconds(small, 2) == Approx(10.0));
  CHECK(estimated_seconds(small, 0) == Approx(20.0));
}

TEST_CASE("RGPE's ranking-loss samples are part of the work estimate") {
  const std::string cfg =
      "algorithm: rgpe\nrounds: 50\nruns: 2\nagents: {count: 11, init_points: 1}\n"
      "objective: {grid_points: 200}\nsources: {points: 10}\nensemble: {samples: 100000}\n";
  const LoadedConfig c = load_config_text(cfg, "rgpe.yaml", "rgpe", {});
  const ResourceEstimate e = estimate_resources(c.spec);
  // 2 runs x 50 rounds x S = 1e5 x (11 x 51^2 + 51^3) with n = 1 + 50 target points.
  const double expected = 2.0 * 50 * 1e5 * (11.0 * 51 * 51 + 51.0 * 51 * 51);
  bool found = false;
  for (const ResourceTerm& t : e.work)
    if (t.what.find("ranking-loss") != std::string::npos) {
      found = true;
      CHECK(t.amount == Approx(expected));
    }
  CHECK(found);
  CHECK_THAT(ResourceEstimate::largest(e.work).what, Catch::Contains("ensemble.samples = 100000"));
}

// Issue 27 sec. 4: the estimate counted no objective work, so `fbosim config emnist.yaml
// --resources` said "up to about 2 minutes" for a 10-run experiment measured at about 1,090
// CPU-seconds (docs/BENCHMARKS.md). The CNN trainings are now a term of their own.
TEST_CASE("the EMNIST CNN trainings are part of the work estimate, an upper bound of the time") {
  const std::string cfg =
      "algorithm: dp_fts\nrounds: 60\nruns: 10\nagents: {count: 50, init_points: 10}\n"
      "objective: {family: emnist}\n";
  const LoadedConfig c = load_config_text(cfg, "emnist.yaml", "emnist", {});
  const ResourceEstimate e = estimate_resources(c.spec);
  // Multiply-adds of one digit, from the layer shapes of the default CNN (4 and 8 channels of
  // 5 x 5, 32 hidden units): conv1 28*28*4*25 = 78,400, conv2 14*14*8*4*25 = 156,800, dense
  // 7*7*8*32 = 12,544, output 32*10 = 320; the forward pass 2 x 248,064 = 496,128 FLOP, and a
  // training digit adds the same again for the weight gradients and 2 x (156,800 + 12,544 +
  // 320) = 339,328 for the input gradients of all but the first layer: 1,331,584 FLOP.
  // 10 epochs x 120 training digits and 16 test digits (the largest writer), in 4-float vectors.
  const double training = (10.0 * 120 * 1331584 + 16.0 * 496128) / 4;
  const double evaluations = 10.0 * 50 * (10 + 60);
  bool found = false;
  for (const ResourceTerm& t : e.work)
    if (t.what.find("CNN training") != std::string::npos) {
      found = true;
      CHECK(t.amount == Approx(evaluations * training));
      CHECK_THAT(t.what, Catch::Contains("runs = 10") && Catch::Contains("agents.count = 50") &&
                             Catch::Contains("rounds = 60") && Catch::Contains("epochs = 10"));
    }
  CHECK(found);
  CHECK_THAT(ResourceEstimate::largest(e.work).what, Catch::Contains("CNN training"));
  // An upper estimate: above the 1,090 CPU-seconds the experiment took on one core here.
  CHECK(estimated_seconds(e, 1) > 1090);
  // The synthetic families' evaluations cost nothing beside the algorithm's work: no term.
  const LoadedConfig synthetic =
      load_config_text("rounds: 60\nruns: 2\n", "synthetic.yaml", "synthetic", {});
  for (const ResourceTerm& t : estimate_resources(synthetic.spec).work)
    CHECK(t.what.find("objective evaluations") == std::string::npos);
}

// Issue 39 sec. 3: a user program's evaluations cost what the program costs; the runner times
// one and refuses, by the bound of every experiment, what would take longer (evaluation_refusal).
TEST_CASE("a user program's evaluations are counted, and refused beyond the bound once timed") {
  const LoadedConfig c = load_config_text(
      "algorithm: dp_fts_de\nrounds: 50\nruns: 3\nagents: {count: 1000, init_points: 4}\n"
      "exploration: {subregions: 2}\nrff: {features: 10}\nlocal_ts: {features: 10}\n"
      "objective: {family: command, inputs: 2, command: cat}\n",
      "user.yaml", "user", {});
  CHECK(user_program_objective(c.spec));
  // Every agent's initial design and one query per round, in every run.
  const EvaluationCount n = objective_evaluations(c.spec);
  CHECK(n.evaluations == 3.0 * 1000 * (4 + 50));
  CHECK_THAT(n.what, Catch::Contains("runs = 3") && Catch::Contains("agents.count = 1000") &&
                         Catch::Contains("agents.init_points = 4") &&
                         Catch::Contains("rounds = 50"));
  // The bound: 10^17 operations at 3.3e9 per second, 3.03e7 s (about a year) on one thread.
  const double bound = 1e17 / 3.3e9;
  CHECK(evaluation_refusal(n, 0.9 * bound / n.evaluations).empty());
  const std::string refusal = evaluation_refusal(n, 1.1 * bound / n.evaluations);
  CHECK_THAT(refusal, Catch::Contains("162000 evaluations") &&
                          Catch::Contains("agents.count = 1000") &&
                          Catch::Contains("would take about 1.06 years on one thread") &&
                          Catch::Contains("one took 206 s") && Catch::Contains("smaller sizes"));
  // Built-in families and tables are not user programs.
  const LoadedConfig table = load_config_text("rounds: 5\n", "synthetic.yaml", "synthetic", {});
  CHECK_FALSE(user_program_objective(table.spec));
}
