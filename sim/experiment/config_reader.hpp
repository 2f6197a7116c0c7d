#pragma once
// Strict reading of a YAML tree by dotted key paths. Every key read is recorded with its
// effective value (the resolved config); any key of the input that was never read is an
// error, so a typo is never silently ignored. Errors name the file, the key and the value.
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace fbosim::sim {

/// A configuration error: the message names the file, the key and the bad value.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ConfigReader {
 public:
  /// root: the parsed file (after overrides); source: the file name for messages.
  ConfigReader(YAML::Node root, std::string source);

  /// The value at `key` (dotted path) or `fallback` when absent; throws ConfigError if the
  /// value is not a T. The effective value is recorded in resolved().
  template <typename T>
  T get(const std::string& key, const T& fallback);
  /// The value at key if present (recorded), else nothing (recorded as null).
  template <typename T>
  std::optional<T> get_optional(const std::string& key);
  /// Throws ConfigError "<source>: <key>: <what>, got <value>" unless ok.
  void require(bool ok, const std::string& key, const std::string& what) const;
  /// One of `choices`, else a ConfigError listing them.
  std::string get_choice(const std::string& key, const std::string& fallback,
                         const std::vector<std::string>& choices);

  /// Throws ConfigError naming every key of the input that was never read.
  void reject_unknown_keys() const;
  /// The resolved configuration: every key read, with its effective value.
  const YAML::Node& resolved() const { return resolved_; }
  const std::string& source() const { return source_; }

  /// Applies "a.b.c=value" (value parsed as YAML) to root; throws ConfigError if malformed.
  static void apply_override(YAML::Node& root, const std::string& assignment);

 private:
  YAML::Node find(const std::string& key) const;
  std::string text_of(const std::string& key) const;
  void record(const std::string& key, const YAML::Node& value);

  YAML::Node root_;
  YAML::Node resolved_;
  std::string source_;
  std::set<std::string> read_;
};

template <typename T>
T ConfigReader::get(const std::string& key, const T& fallback) {
  const YAML::Node node = find(key);
  T value = fallback;
  if (node && !node.IsNull()) {
    try {
      if (!node.IsScalar()) throw YAML::Exception(YAML::Mark::null_mark(), "not a scalar");
      value = node.as<T>();
    } catch (const YAML::Exception&) {
      throw ConfigError(source_ + ": " + key + ": has the wrong type, got '" + text_of(key) + "'");
    }
  }
  record(key, YAML::Node(value));
  return value;
}

template <typename T>
std::optional<T> ConfigReader::get_optional(const std::string& key) {
  const YAML::Node node = find(key);
  if (!node || node.IsNull()) {
    record(key, YAML::Node(YAML::NodeType::Null));
    return std::nullopt;
  }
  return get<T>(key, T{});
}

}  // namespace fbosim::sim
