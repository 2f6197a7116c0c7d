#pragma once
// An exclusive lock on a sweep directory: flock(2) on DIR/.lock, held for the object's
// lifetime. The file is removed on release (a success or an error leaves no .lock); the
// kernel drops the flock when the process ends, so the .lock a SIGKILL leaves is never stale.
#include <memory>
#include <string>

#include "sim/experiment/interrupt.hpp"

namespace fbosim::sim {

class SweepLock {
 public:
  /// Creates `dir` if needed and locks it; throws std::runtime_error naming the directory (and
  /// the holder's pid when known) if another sweep holds it.
  explicit SweepLock(const std::string& dir);
  ~SweepLock();
  SweepLock(const SweepLock&) = delete;
  SweepLock& operator=(const SweepLock&) = delete;

 private:
  std::string path_;
  int fd_ = -1;
  std::unique_ptr<ExitCleanup> cleanup_;  ///< removes the file if the watchdog ends the process
};

}  // namespace fbosim::sim
