#pragma once
// An output file that appears only when complete: written to "<path>.tmp", renamed over <path>
// by commit(); removed if destroyed uncommitted (an error or Ctrl-C never leaves half a CSV).
#include <cstdio>
#include <string>
#include <string_view>

namespace fbosim::sim {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(std::string_view text);
  /// Flushes, closes and renames into place; throws std::runtime_error naming the path on
  /// failure.
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string tmp_;
  std::FILE* file_ = nullptr;
};

}  // namespace fbosim::sim
