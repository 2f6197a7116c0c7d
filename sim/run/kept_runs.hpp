#pragma once
// The finished runs of a results directory, kept so that an experiment can grow (issue 28):
// `fbosim run --runs 50` into a directory holding a finished `--runs 20` experiment of the same
// config and build reuses runs 0-19 and computes runs 20-49; the outputs are byte-identical to a
// fresh 50-run experiment, since run r's streams are keyed by the seed and r, never by the
// number of runs. (A smaller --runs reuses a prefix likewise.)
//
// OUT/.fbosim-runs/run-<r>.ckpt is run r's checkpoint (run_checkpoint.hpp, verified the same
// way) without its rows of trace.csv and release.csv, which stay in those files only: in their
// place it holds "<bytes> <sha256>" of those rows, and run r's rows are the bytes that follow
// the header and the rows of runs 0..r-1. Its key is the build id and the resolved config
// without `runs`. Reuse stops at the first run whose record is missing, was made for another
// config or build, or whose rows changed (the rest is computed again; rows that changed are
// reported). The records are rewritten after every successful run (for its runs only).
#include <string>
#include <vector>

#include "sim/run/run_result.hpp"

namespace fbosim::run {

class KeptRuns {
 public:
  /// key: growth_key(build id, resolved config text).
  KeptRuns(std::string out_dir, std::string key);

  /// Runs 0..k-1 (k <= runs) reusable from the directory's trace.csv and release.csv, in order;
  /// `note` says why reuse stopped early where files were found changed ("" otherwise).
  std::vector<RunResult> load(int runs, std::string& note) const;
  /// The record of `full` (its rows replaced by their length and SHA-256).
  static RunResult record_of(const RunResult& full);
  /// After the outputs are committed: writes the records (runs 0..n-1 in order) and removes
  /// any other. Throws std::runtime_error naming the file on a write error.
  void save(const std::vector<RunResult>& records) const;

  static constexpr const char* kFolder = ".fbosim-runs";

 private:
  std::string out_dir_;
  std::string dir_;
  std::string key_;
};

/// The key of the kept runs: the build id and the resolved config without its `runs` line.
std::string growth_key(const std::string& build_id, const std::string& config_text);

}  // namespace fbosim::run
