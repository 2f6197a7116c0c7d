#pragma once
// The config keys declared after issue 25's guards were taken, shared by catalog_guard_test
// and config_snapshot_test.
#include <fstream>
#include <set>
#include <string>

namespace fbosim::schema_test {

// The keys declared after the guards were taken (data/added_keys.txt: one path per line, '#'
// comments).
inline std::set<std::string> read_added_keys(const std::string& source_dir) {
  std::ifstream in(source_dir + "/tests/schema/data/added_keys.txt");
  std::set<std::string> keys;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') keys.insert(line);
  return keys;
}

}  // namespace fbosim::schema_test
