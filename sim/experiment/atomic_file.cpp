#include "sim/experiment/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace fbosim::sim {

namespace {
std::string parent_of(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}
}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {
  // commit() names the unnamed file through /proc: without /proc, a named temporary.
  const int fd = ::access("/proc/self/fd", X_OK) == 0
                     ? ::open(parent_of(path_).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666)
                     : -1;
  if (fd >= 0) {
    file_ = ::fdopen(fd, "wb");
    if (!file_) ::close(fd);
    unnamed_ = file_ != nullptr;
  }
  if (!file_) file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) throw std::runtime_error("cannot write " + tmp_ + ": " + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (file_) {
    std::fclose(file_);
    if (!unnamed_) std::remove(tmp_.c_str());
  }
}

void AtomicFile::write(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size())
    throw std::runtime_error("cannot write " + tmp_ + ": " + std::strerror(errno));
}

void AtomicFile::commit() {
  bool ok = std::fflush(file_) == 0;
  int err = ok ? 0 : errno;
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
  std::fclose(file_);
  file_ = nullptr;
  if (ok && std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    if (named) std::remove(tmp_.c_str());
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(err));
  }
}

void AtomicFile::remove_stale(const std::string& path) { std::remove((path + ".tmp").c_str()); }

}  // namespace fbosim::sim
