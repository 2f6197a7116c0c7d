#pragma once
// The resolved configuration: every key read, with its effective value (given or default), in
// the order first recorded. The config reader writes it as config.resolved.yaml.
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "schema/value.hpp"

namespace fbosim::schema {

class Record {
 public:
  /// Records `value` at `path`; a path recorded again keeps its place and takes the new value.
  void set(const std::string& path, Resolved value);
  /// The value recorded at path, or null.
  const Resolved* find(const std::string& path) const;
  bool has(const std::string& path) const { return find(path) != nullptr; }
  /// (path, value) in the order first recorded.
  const std::vector<std::pair<std::string, Resolved>>& entries() const { return entries_; }

 private:
  std::vector<std::pair<std::string, Resolved>> entries_;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace fbosim::schema
