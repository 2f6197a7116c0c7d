#pragma once
// Finished runs of an experiment kept across an interruption, so that `fbosim run` resumes:
// OUT/.fbosim-partial/ holds `key` (the build id and the resolved config) and one
// run-<r>.ckpt per finished run (its RunResult, doubles in shortest round-trip form, written
// atomically). A later attempt with the same key reuses them, so its outputs are byte-identical
// to an uninterrupted run's; any other key clears the folder (with a line saying so).
//
// A checkpoint is trusted only when it verifies: its first line names the format version, the
// length of the rest and its SHA-256; the rest starts with the run index and the SHA-256 of the
// key. One changed byte, a truncated file, run 0's file copied over run 1's, a checkpoint of
// another config or build or of another format version are each reported with the reason and
// the run is computed again. Every size in the file is checked against the bytes that remain
// before anything is allocated. The runner removes the folder once the outputs are committed.
#include <optional>
#include <string>

#include "sim/run/run_result.hpp"

namespace fbosim::run {

/// The result of reading a checkpoint: the run, or why there is none.
struct CheckpointRead {
  std::optional<RunResult> result;
  std::string problem;  ///< why the file was not trusted ("" when there is no file or it verified)
};

class RunCheckpoints {
 public:
  /// Opens (creating) OUT/.fbosim-partial for `key`, clearing checkpoints made for another key.
  /// A .fbosim-partial that is not a directory (a file, a symbolic link) is removed (only the
  /// link, not its target) and reported in notes().
  RunCheckpoints(const std::string& out_dir, const std::string& key);

  /// Run `run`'s checkpoint if one exists and verifies; a file that does not verify is removed
  /// and its problem returned.
  CheckpointRead load(int run) const;
  /// Writes the checkpoint of res.run atomically.
  void save(const RunResult& res) const;
  /// Deletes the folder and every checkpoint.
  void remove() const;
  /// True if the folder holds no checkpoint.
  bool empty() const;
  const std::string& dir() const { return dir_; }
  /// The path of run `run`'s checkpoint.
  std::string path(int run) const;
  /// True if the constructor cleared checkpoints made for another key.
  bool discarded() const { return discarded_; }
  /// What the constructor removed that was not a checkpoint folder ("" if nothing).
  const std::string& note() const { return note_; }

  static constexpr const char* kFolder = ".fbosim-partial";
  static constexpr int kVersion = 5;  ///< format version this build writes and reads

 private:
  std::string dir_;
  std::string key_;
  bool discarded_ = false;
  std::string note_;
};

/// The checkpoint text of a run bound to `key` (see above).
std::string checkpoint_text(const RunResult& res, const std::string& key);
/// Verifies `text` as the checkpoint of run `run` made for `key` and parses it.
CheckpointRead read_checkpoint(const std::string& text, int run, const std::string& key);

}  // namespace fbosim::run
