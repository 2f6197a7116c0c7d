#include "sim/output/directory_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sim/output/provenance.hpp"

namespace fbosim::output {

namespace {
// "pid 123: fbosim run cfg.yaml" from what the holder wrote ("" if it wrote nothing yet).
std::string holder_of(int fd) {
  char buf[512] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string text = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
  const std::size_t eol = text.find('\n');
  const std::string pid = text.substr(0, eol);
  if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) return "";
  std::string command = eol == std::string::npos ? "" : text.substr(eol + 1);
  while (!command.empty() && (command.back() == '\n' || command.back() == ' ')) command.pop_back();
  if (command.size() > 200) command = command.substr(0, 200) + "...";
  return "pid " + pid + (command.empty() ? "" : ": " + command);
}
}  // namespace

DirectoryLock::DirectoryLock(const std::string& dir) : path_(dir + "/" + kFile) {
  // The holder unlinks the file when done: the lock we get must be on the file that is at the
  // path now, not on one a finishing holder just unlinked (then try again). A directory that a
  // failing process removed between our mkdir and our open is made again.
  for (int attempt = 0;; ++attempt) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw std::runtime_error("cannot create directory " + dir + ": " + ec.message());
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0) {
      const int err = errno;
      if (err == ENOENT && attempt < 10) continue;
      throw std::runtime_error("cannot open " + path_ + ": " + std::strerror(err));
    }
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const std::string holder = holder_of(fd_);
      ::close(fd_);
      fd_ = -1;
      if (err == EWOULDBLOCK)
        throw DirectoryBusy(dir + " is in use by another fbosim process" +
                            (holder.empty() ? "" : " (" + holder + ")") +
                            "; wait for it to finish or use another --out (sweep shards: one "
                            "directory each)");
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
  // The holder's pid and command line, for the message above (informative only: the lock is
  // the flock, which a killed process does not keep).
  const std::string record = std::to_string(::getpid()) + "\n" + command_line() + "\n";
  if (::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, record.data(), record.size(), 0) < 0) {
    // Not fatal: the lock holds without the record.
  }
}

DirectoryLock::~DirectoryLock() {
  cleanup_.reset();
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // still holding the lock: no other process holds this file
  ::close(fd_);             // closing the descriptor releases the flock
}

}  // namespace fbosim::output
