#pragma once
// Finished runs of an experiment kept across an interruption, so that `fbosim run` resumes:
// OUT/.fbosim-partial/ holds `key` (the build id and the resolved config) and one
// run-<r>.ckpt per finished run (its RunResult, doubles in shortest round-trip form, written
// atomically). A later attempt with the same key reuses them, so its outputs are byte-identical
// to an uninterrupted run's; any other key clears the folder. The runner removes the folder
// once the outputs are committed.
#include <optional>
#include <string>

#include "sim/experiment/run_result.hpp"

namespace fbosim::sim {

class RunCheckpoints {
 public:
  /// Opens (creating) OUT/.fbosim-partial for `key`, clearing checkpoints made for another key.
  RunCheckpoints(const std::string& out_dir, const std::string& key);

  /// The result of run `run` if a checkpoint of it exists (and parses).
  std::optional<RunResult> load(int run) const;
  /// Writes the checkpoint of res.run atomically.
  void save(const RunResult& res) const;
  /// Deletes the folder and every checkpoint.
  void remove() const;
  /// True if the folder holds no checkpoint.
  bool empty() const;
  const std::string& dir() const { return dir_; }
  /// True if the constructor cleared checkpoints made for another key.
  bool discarded() const { return discarded_; }

  static constexpr const char* kFolder = ".fbosim-partial";

 private:
  std::string dir_;
  bool discarded_ = false;
};

/// The checkpoint text of a run, and back (std::nullopt if malformed or truncated).
std::string checkpoint_text(const RunResult& res);
std::optional<RunResult> parse_checkpoint(const std::string& text);

}  // namespace fbosim::sim
