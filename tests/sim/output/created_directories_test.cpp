// The directories a command creates for its output, removed after a failure only where it
// made them and they are empty.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "sim/output/created_directories.hpp"

namespace fs = std::filesystem;
using fbosim::output::CreatedDirectories;

TEST_CASE("CreatedDirectories records the missing ones outermost first and removes only those") {
  const fs::path base = fs::temp_directory_path() / "fbosim_created_dirs";
  fs::remove_all(base);
  fs::create_directories(base / "kept");
  const CreatedDirectories c(base / "a" / "b" / "c");
  REQUIRE(c.paths().size() == 3);
  CHECK(c.paths()[0] == fs::absolute(base / "a"));
  CHECK(c.paths()[2] == fs::absolute(base / "a" / "b" / "c"));
  CHECK(CreatedDirectories(base / "kept").paths().empty());
  fs::create_directories(base / "a" / "b" / "c");
  std::ofstream(base / "a" / "note.txt") << "a file the command did not make";
  c.remove_empty();
  CHECK_FALSE(fs::exists(base / "a" / "b"));   // empty: removed, innermost first
  CHECK(fs::exists(base / "a" / "note.txt"));  // not empty: kept
  CHECK(fs::exists(base / "kept"));
  fs::remove_all(base);
}
