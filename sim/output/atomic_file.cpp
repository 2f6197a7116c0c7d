#include "sim/output/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "sim/output/interrupt.hpp"

namespace fbosim::output {

namespace {
std::string parent_of(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}
}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {
  // commit() names the unnamed file through /proc: without /proc, a named temporary.
  const bool proc = ::access("/proc/self/fd", X_OK) == 0;
  const int fd =
      proc ? ::open(parent_of(path_).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666) : -1;
  if (fd >= 0) {
    file_ = ::fdopen(fd, "wb");
    if (!file_) ::close(fd);
    unnamed_ = file_ != nullptr;
  } else if (proc && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
    // Not a file system without O_TMPFILE but a real failure (too many open files, a read-only
    // or full file system, no permission): the file named, not its temporary.
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
  }
  if (!file_) {
    file_ = std::fopen(tmp_.c_str(), "wb");
    if (!file_) throw std::runtime_error("cannot write " + tmp_ + ": " + std::strerror(errno));
    // A named temporary: removed if the watchdog ends the process before commit().
    cleanup_ = std::make_unique<ExitCleanup>([tmp = tmp_] { ::unlink(tmp.c_str()); });
  }
}

AtomicFile::~AtomicFile() {
  if (file_) {
    std::fclose(file_);
    if (!unnamed_) std::remove(tmp_.c_str());
  }
}

// A write error names the file being written (its temporary has no name of its own) and the
// cause: ENOSPC (disk full), EFBIG (`ulimit -f`: SIGXFSZ is ignored, interrupt.hpp), EDQUOT, EIO.
void AtomicFile::write(std::string_view text) {
  if (!file_) throw std::logic_error("AtomicFile::write after commit: " + path_);
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size())
    throw std::runtime_error("cannot write " + path_ + ": " +
                             std::strerror(errno != 0 ? errno : EIO));
}

void AtomicFile::flush() {
  if (!file_) throw std::logic_error("AtomicFile::flush after commit: " + path_);
  errno = 0;
  if (std::fflush(file_) != 0 || std::ferror(file_))
    throw std::runtime_error("cannot write " + path_ + ": " +
                             std::strerror(errno != 0 ? errno : EIO));
}

void AtomicFile::commit() {
  if (!file_) throw std::logic_error("AtomicFile::commit twice: " + path_);
  // fflush reports a full disk or file-size limit on the last buffer; fsync is not needed for
  // the all-or-nothing guarantee against a killed process (only against a crash of the machine).
  errno = 0;
  bool ok = std::fflush(file_) == 0 && !std::ferror(file_);
  int err = ok ? 0 : (errno != 0 ? errno : EIO);
  // Naming and renaming are not interrupted by the watchdog's exit (interrupt.hpp).
  const CommitLock lock;
  bool named = !unnamed_;  // tmp_ is ours
  if (ok && unnamed_) {
    // Give the unnamed file a name (linkat through /proc needs no privilege), replacing a
    // stale temporary of a killed process.
    const std::string fd = "/proc/self/fd/" + std::to_string(::fileno(file_));
    for (int attempt = 0; attempt < 2; ++attempt) {
      ok = ::linkat(AT_FDCWD, fd.c_str(), AT_FDCWD, tmp_.c_str(), AT_SYMLINK_FOLLOW) == 0;
      err = ok ? 0 : errno;
      named = ok;
      if (ok || err != EEXIST) break;
      std::remove(tmp_.c_str());
    }
  }
  if (std::fclose(file_) != 0 && ok) {  // a delayed write error (NFS, quota)
    ok = false;
    err = errno;
  }
  file_ = nullptr;
  if (ok && std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok && named) std::remove(tmp_.c_str());
  cleanup_.reset();  // tmp_ is gone: renamed or removed
  if (!ok) throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(err));
}

void AtomicFile::remove_stale(const std::string& path) { std::remove((path + ".tmp").c_str()); }

}  // namespace fbosim::output
