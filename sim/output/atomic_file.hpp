#pragma once
// An output file that appears only when complete. It is written to an unnamed file in the
// target's directory (open(2) with O_TMPFILE), so a process killed with SIGKILL leaves nothing;
// commit() links it as "<path>.tmp" and renames that over <path>. Where the file system has no
// O_TMPFILE the temporary is "<path>.tmp" from the start; remove_stale() deletes such a
// leftover. Destroyed uncommitted (an error, Ctrl-C), no file is left.
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace fbosim::output {

class ExitCleanup;

class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Throws std::runtime_error naming the path and the cause (disk full, file too large, ...).
  void write(std::string_view text);
  /// Writes out what is buffered, so that a full disk or a file-size limit is reported now
  /// (std::runtime_error naming the path), before any file of a set is named (ResultFiles).
  void flush();
  /// Flushes, closes and renames into place; throws std::runtime_error naming the path on
  /// failure (the temporary is then gone).
  void commit();
  const std::string& path() const { return path_; }

  /// Removes "<path>.tmp" left by a process killed between its creation and the rename.
  static void remove_stale(const std::string& path);

 private:
  std::string path_;
  std::string tmp_;
  std::FILE* file_ = nullptr;
  bool unnamed_ = false;                  ///< an O_TMPFILE file, linked as tmp_ only by commit()
  std::unique_ptr<ExitCleanup> cleanup_;  ///< removes a named temporary at an abrupt exit
};

}  // namespace fbosim::output
