#pragma once
// The directories a command is about to create for its output, so that a failure removes
// exactly those it made (never one that was there before) and leaves the disk as it was:
// `run`, `sweep` and `merge` share it.
#include <filesystem>
#include <vector>

namespace fbosim::output {

class CreatedDirectories {
 public:
  /// Records the directories create_directories(dir) would create, outermost first (none when
  /// dir exists). Call it before anything creates them.
  explicit CreatedDirectories(const std::filesystem::path& dir);
  /// Removes each recorded directory that is empty, innermost first (errors ignored: it is a
  /// clean-up after another failure).
  void remove_empty() const;
  const std::vector<std::filesystem::path>& paths() const { return paths_; }

 private:
  std::vector<std::filesystem::path> paths_;
};

}  // namespace fbosim::output
