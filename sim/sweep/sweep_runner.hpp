#pragma once
// Runs the points of a sweep plan (docs/SWEEPS.md): each point is one experiment written by
// run_experiment into DIR/<point name>/, several points at once on their own thread pools.
//   - resume: a point whose DIR/<point>/sweep.done verifies (sim/sweep/sweep_done.hpp:
//     the SHA-256 fingerprint of its resolved config and this build, and of its output files
//     as they are now) is skipped; any other point is (re)run with a line saying why (another
//     build or config, files changed or missing, a garbage record), its sweep.done removed
//     first and written last (atomically), so an interrupted point is redone next time
//     (reusing its finished runs' checkpoints);
//   - a point directory holding the results of another config is refused before anything
//     runs unless `force` (sim/output/provenance.hpp), and so is a point directory that is a
//     symbolic link (or holds one where a result file goes), even with `force`;
//   - DIR/.lock (DirectoryLock) refuses any other fbosim process writing the same directory,
//     and a directory holding a sweep of other keys is refused unless `force`;
//   - DIR/sweep_plan.csv lists the full grid, DIR/sweep.csv one row per finished point of this
//     shard, in grid order (sim/sweep/sweep_table.hpp).
// Every point uses the config's seed: the same run index sees the same objectives and initial
// points at every point (common random numbers; streams are keyed by seed, run and purpose).
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/config/sweep_plan.hpp"

namespace fbosim::sweep {

/// Thrown when Ctrl-C/SIGTERM stopped a sweep: finished points were kept and listed.
class SweepInterrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// How many points run at once (jobs) with how many threads each.
struct SweepJobs {
  int jobs = 1;
  int threads = 1;
  bool oversubscribed = false;  ///< jobs x threads > hardware threads (the user asked for it)
};

/// Fills what the user left at 0 so that jobs x threads <= hardware: neither given -> one
/// thread per point and min(points, hardware) points at once; only one given -> the other is
/// hardware / given (at least 1). jobs never exceeds the number of points.
SweepJobs choose_jobs(int jobs, int threads, int points, int hardware);

struct SweepOptions {
  std::string out_dir;  ///< DIR (required)
  int jobs = 0;         ///< 0: choose_jobs
  int threads = 0;      ///< per point; 0: choose_jobs
  config::ShardSpec shard;
  std::string build;   ///< part of every point's fingerprint; "" = build_info().build_id
  bool force = false;  ///< replace points holding the results of another config
  bool progress = true;
};

struct SweepReport {
  std::string out_dir;
  int points = 0;        ///< in the full grid
  int shard_points = 0;  ///< in this shard
  int ran = 0, skipped = 0;
  SweepJobs jobs;
  double seconds = 0;      ///< wall time of the sweep
  double run_seconds = 0;  ///< sum of the wall times of the points run (not skipped)
};

/// The config of every point is `config_text` (YAML; its `sweep:` section is ignored) with
/// `overrides` then the point's values applied; all points are validated before any runs.
/// source names the file in messages; default_name is the experiment name when `name` is
/// absent. Throws ConfigError for a bad point (naming it), ResultsClash if a point directory
/// holds another config's results (without `force`), std::runtime_error if DIR is locked
/// or a point fails (after the other running points finished and sweep.csv was written),
/// SweepInterrupted after Ctrl-C.
SweepReport run_sweep(const std::string& config_text, const std::string& source,
                      const std::string& default_name, const std::vector<std::string>& overrides,
                      const config::SweepPlan& plan, const SweepOptions& options);

}  // namespace fbosim::sweep
