#pragma once
// An exclusive lock on an output directory, held for the object's lifetime by every fbosim
// process that writes there: `run` (for the whole run, checkpoints included), `sweep` and
// `merge`. It is flock(2) on DIR/.lock, which also records the holder's pid and command line
// for the message a second process gets. The file is removed on release (a success or an
// error leaves no .lock); the kernel drops the flock when the process ends, so the .lock a
// SIGKILL leaves is never stale: the next process takes it over at once.
#include <memory>
#include <stdexcept>
#include <string>

#include "sim/output/interrupt.hpp"

namespace fbosim::output {

class DirectoryLock {
 public:
  /// Creates `dir` if needed and locks it; throws DirectoryBusy naming the directory and the
  /// holder (pid and command line, when it recorded them) if another process holds it, or
  /// std::runtime_error if the directory or its .lock cannot be made.
  explicit DirectoryLock(const std::string& dir);
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

  static constexpr const char* kFile = ".lock";

 private:
  std::string path_;
  int fd_ = -1;
  std::unique_ptr<ExitCleanup> cleanup_;  ///< removes the file if the watchdog ends the process
};

/// Thrown when another process holds the lock of a directory.
class DirectoryBusy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace fbosim::output
