#pragma once
// An exclusive lock on a sweep directory: flock(2) on DIR/.lock, held for the object's
// lifetime. The kernel drops it when the process ends, so a crash never leaves a stale lock.
#include <string>

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
  int fd_ = -1;
};

}  // namespace fbosim::sim
