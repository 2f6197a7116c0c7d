#include "sim/experiment/sweep_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace fbosim::sim {

SweepLock::SweepLock(const std::string& dir) : path_(dir + "/.lock") {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create sweep directory " + dir + ": " + ec.message());
  // The holder unlinks the file when done: the lock we get must be on the file that is at the
  // path now, not on one a finishing holder just unlinked (then try again).
  for (;;) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error("cannot open " + path_ + ": " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      char pid[32] = {};
      const ssize_t n = ::pread(fd_, pid, sizeof pid - 1, 0);
      ::close(fd_);
      fd_ = -1;
      if (err == EWOULDBLOCK) {
        std::string holder = n > 0 ? std::string(pid, static_cast<std::size_t>(n)) : "";
        while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' '))
          holder.pop_back();
        throw std::runtime_error("sweep directory " + dir + " is in use by another sweep" +
                                 (holder.empty() ? "" : " (pid " + holder + ")") +
                                 "; wait for it or use another --out (shards: one directory each)");
      }
      throw std::runtime_error("cannot lock " + path_ + ": " + std::strerror(err));
    }
    struct stat held {
    }, now{};
    if (::fstat(fd_, &held) == 0 && ::stat(path_.c_str(), &now) == 0 && held.st_dev == now.st_dev &&
        held.st_ino == now.st_ino)
      break;
    ::close(fd_);
  }
  cleanup_ = std::make_unique<ExitCleanup>([path = path_] { ::unlink(path.c_str()); });
  // The holder's pid, for the message above (informative only: the lock is the flock).
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
    // Not fatal: the lock holds without the pid.
  }
}

SweepLock::~SweepLock() {
  cleanup_.reset();
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // still holding the lock: no other process holds this file
  ::close(fd_);             // closing the descriptor releases the flock
}

}  // namespace fbosim::sim
