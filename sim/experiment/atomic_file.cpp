#include "sim/experiment/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace fbosim::sim {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) throw std::runtime_error("cannot write " + tmp_ + ": " + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (file_) {
    std::fclose(file_);
    std::remove(tmp_.c_str());
  }
}

void AtomicFile::write(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size())
    throw std::runtime_error("cannot write " + tmp_ + ": " + std::strerror(errno));
}

void AtomicFile::commit() {
  const bool ok = std::fflush(file_) == 0;
  std::fclose(file_);
  file_ = nullptr;
  if (!ok || std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    std::remove(tmp_.c_str());
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
  }
}

}  // namespace fbosim::sim
