// fbosim sweep CONFIG [--grid KEY=V1,V2,...]... [--set KEY=VALUE]... [--runs R] [--seed S]
//                     [--jobs J] [--threads K] [--shard I/K] [--out DIR] [--accountants A,B]
//                     [--quiet] [--force] [--allow-exec]
// Runs the cartesian product of the grids (and of the config's `sweep:` section), one run
// directory per point, and writes DIR/sweep.csv (docs/SWEEPS.md).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/thread_pool.hpp"
#include "sim/cli/commands.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/strict_yaml.hpp"
#include "sim/config/sweep_plan.hpp"
#include "sim/config/user_program.hpp"
#include "sim/output/interrupt.hpp"
#include "sim/sweep/sweep_runner.hpp"

namespace fbosim::cli {

namespace {

// The programs a sweep's points run: the base config's, and every value of a grid over
// objective.command or objective.callable (a --grid is the command line's, a `sweep:` grid the
// file's; a --grid replaces the file's grid of its key).
std::vector<config::UserProgram> sweep_programs(const config::ExperimentSpec& base,
                                                const std::vector<std::string>& overrides,
                                                const std::vector<config::SweepGrid>& file_grids,
                                                const std::vector<config::SweepGrid>& cli_grids) {
  const auto on_cli = [&](const std::string& key) {
    for (const config::SweepGrid& g : cli_grids)
      if (g.key == key) return true;
    return false;
  };
  const auto on_file = [&](const std::string& key) {
    for (const config::SweepGrid& g : file_grids)
      if (g.key == key) return true;
    return false;
  };
  std::vector<config::UserProgram> out;
  if (const auto p = config::objective_program(base, overrides);
      p && !on_cli(p->key) && !on_file(p->key))
    out.push_back(*p);  // a grid over its key replaces it at every point
  for (const auto* grids : {&file_grids, &cli_grids})
    for (const config::SweepGrid& g : *grids) {
      if (g.key != "objective.command" && g.key != "objective.callable") continue;
      if (grids == &file_grids && on_cli(g.key)) continue;
      for (const std::string& v : g.values) out.push_back({g.key, v, grids == &file_grids});
    }
  return out;
}

}  // namespace

void run(const SweepArgs& a) {
  const std::string text = config::read_config_text(a.config);
  const std::string stem = std::filesystem::path(a.config).stem().string();

  std::vector<std::string> overrides = a.sets;
  if (a.runs > 0) overrides.push_back(fmt::format("runs={}", a.runs));
  if (a.seed >= 0) overrides.push_back(fmt::format("seed={}", a.seed));
  if (!a.accountants.empty())
    overrides.push_back(fmt::format("server.accountants=\"{}\"", a.accountants));
  // The base config first: malformed YAML or a bad --set fails here with the usual message.
  const config::LoadedConfig base = config::load_config_text(text, a.config, stem, overrides);

  std::vector<config::SweepGrid> cli_grids;
  sweep::SweepOptions options;
  try {  // malformed --grid and --shard are usage errors
    for (const std::string& g : a.grids) cli_grids.push_back(config::parse_grid(g));
    if (!a.shard.empty()) options.shard = config::parse_shard(a.shard);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  const std::vector<config::SweepGrid> file_grids =
      config::grids_from_yaml(config::parse_yaml_strictly(text, a.config), a.config);
  config::check_user_programs(sweep_programs(base.spec, overrides, file_grids, cli_grids), a.config,
                              a.allow_exec);
  const config::SweepPlan plan(config::combine_grids(file_grids, cli_grids));

  options.out_dir = a.out.empty() ? "results/" + base.spec.name + "_sweep" : a.out;
  const int hardware = core::ThreadPool::hardware_threads();
  const sweep::SweepJobs jobs = sweep::choose_jobs(
      a.jobs, a.threads, static_cast<int>(plan.shard(options.shard).size()), hardware);
  if (jobs.oversubscribed)
    std::fprintf(stderr,
                 "fbosim: warning: %d jobs x %d threads = %d threads on %d hardware threads; "
                 "the points will compete for cores\n",
                 jobs.jobs, jobs.threads, jobs.jobs * jobs.threads, hardware);
  options.jobs = jobs.jobs;
  options.threads = jobs.threads;
  options.progress = !a.quiet;
  options.force = a.force;
  const sweep::SweepReport r = sweep::run_sweep(text, a.config, stem, overrides, plan, options);
  if (a.quiet) return;
  std::printf(
      "%s: %d point(s)%s in %.2f s: %d run, %d skipped as finished (%d job(s) x %d thread(s))\n"
      "  the points' runs took %.2f s in all\n"
      "  wrote %s/sweep.csv\n",
      base.spec.name.c_str(), r.shard_points,
      options.shard.count > 1
          ? fmt::format(" (shard {}/{} of {})", options.shard.index, options.shard.count, r.points)
                .c_str()
          : "",
      r.seconds, r.ran, r.skipped, r.jobs.jobs, r.jobs.threads, r.run_seconds, r.out_dir.c_str());
}

}  // namespace fbosim::cli
