#pragma once
// Gathers the sweep.csv of several shard directories of one sweep into one sweep.csv
// (docs/SWEEPS.md). Every input must hold the same sweep_plan.csv (the same grid); rows are
// written in grid order with `dir` rewritten relative to the output directory. Every point
// merged is verified first: its sweep.done must parse and match its files as they are now
// (sim/sweep/sweep_done.hpp), and its row must hold what its summary.csv and server.csv
// say; a point that does not verify is refused, naming it and why. A point found in several
// inputs is kept once (the first input given) if its results agree and refused otherwise;
// points of the plan found in no input are reported as missing. Points made by different
// builds (the `build` line of their sweep.done) are refused: one sweep.csv holds the results
// of one build.
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/sweep/sweep_table.hpp"

namespace fbosim::sweep {

struct MergeReport {
  std::string out_dir;
  int points = 0;                    ///< in the plan
  int rows = 0;                      ///< written
  int duplicates = 0;                ///< agreeing duplicates dropped
  std::vector<std::string> missing;  ///< directory names of the points found nowhere
};

/// Thrown when points of the plan are in none of the inputs and the merge was not allowed to
/// write an incomplete sweep.csv: its message lists them (the first 20); nothing was written.
class MergeIncomplete : public std::runtime_error {
 public:
  explicit MergeIncomplete(const MergeReport& report);
  const MergeReport& report() const { return report_; }

 private:
  MergeReport report_;
};

/// Reads DIR/sweep_plan.csv and DIR/sweep.csv of every input (a shard without sweep.csv
/// contributes no rows), writes out_dir/sweep.csv and out_dir/sweep_plan.csv as one set under
/// out_dir/.lock, after every input was checked: a failed merge leaves nothing it wrote or
/// created (the pair is written out before either is named). Throws std::runtime_error naming
/// the file when plans differ, a row does not match its plan, a point does not verify or
/// duplicates disagree; MergeIncomplete when points are missing unless `allow_missing`;
/// ResultsClash when out_dir holds the sweep.csv of another sweep (unless `force`).
MergeReport merge_sweeps(const std::vector<std::string>& dirs, const std::string& out_dir,
                         bool force = false, bool allow_missing = true);

/// Refuses (ResultsClash naming the directory and --force) to write a sweep.csv for `plan`
/// into `dir` when it holds one of another sweep: a sweep_plan.csv of other keys (or, unless
/// `keys_only`, of another grid), unreadable, or a sweep.csv without a plan. Does nothing when
/// `force` or when `dir` holds neither file.
void check_sweep_dir(const std::string& dir, const SweepTable& plan, bool keys_only, bool force);

}  // namespace fbosim::sweep
