#pragma once
// Strict reading of a config's keys by dotted key paths. Every key read is recorded with its
// effective value (the resolved config); any key of the input that was never read is an
// error, so a typo is never silently ignored. Values are read under YAML 1.2's core schema
// (yaml_scalar.hpp). Errors name the file, the line (for a key of the file), the key and the
// value.
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/config/yaml_scalar.hpp"

namespace fbosim::config {

/// A configuration error: the message names the file, the key and the bad value.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The candidate closest to `word` by edit distance (Levenshtein), or "" when none is within
/// a third of the word's length (at least 2 edits): the "did you mean" of messages.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);
/// " (did you mean 'X'?)" for closest_match(word, candidates), or "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);
/// The shortest text that reads back to x (fmt's "{}"), for the resolved config.
std::string shortest(double x);
/// `text` cut to at most 60 characters ("..." marks a cut), for messages.
std::string shorten(const std::string& text);

class ConfigTree;

class ConfigReader {
 public:
  /// tree: the config's keys (after overrides); source: the file name for messages.
  ConfigReader(const ConfigTree& tree, std::string source);

  /// The value at `key` (dotted path) or `fallback` when absent; throws ConfigError if the
  /// value is not a T (yaml_scalar.hpp: `"3"` is text, `yes` no boolean), is given without a
  /// value (`key:`), or is a non-finite floating-point number (no key takes nan or inf). The
  /// effective value is recorded in resolved().
  template <typename T>
  T get(const std::string& key, const T& fallback);
  /// The value at key if present (recorded), else nothing (recorded as null).
  template <typename T>
  std::optional<T> get_optional(const std::string& key);
  /// Throws ConfigError "<source>[:<line>]: <key>: <what>, got <value>" unless ok.
  void require(bool ok, const std::string& key, const std::string& what) const;
  /// An integer key in [lo, hi] (a ConfigError naming the range otherwise).
  int get_int(const std::string& key, int fallback, int lo, int hi);
  /// One of `choices`, else a ConfigError listing them.
  std::string get_choice(const std::string& key, const std::string& fallback,
                         const std::vector<std::string>& choices);

  /// Throws ConfigError naming every key of the input that was never read; a key of the
  /// catalog (key_catalog.hpp) that the algorithm or family does not use is named as such.
  void reject_unknown_keys() const;
  /// The algorithm and objective family being read, for reject_unknown_keys' messages.
  void set_context(std::string algorithm, std::string family);
  /// The resolved configuration: every key read, with its effective value.
  const YAML::Node& resolved() const { return resolved_; }
  const std::string& source() const { return source_; }
  /// "<source>:<line>: <key>" for a key given in the file, else "<source>: <key>": the start
  /// of a message about the key.
  std::string where(const std::string& key) const;

 private:
  YAML::Node find(const std::string& key) const;
  // The catalog's word on a key read: it must be there (std::logic_error otherwise, a
  // programming error) and a number must lie in its bounds (ConfigError otherwise).
  void check_catalog(const std::string& key) const;
  void check_bounds(const std::string& key, double value) const;
  std::string text_of(const std::string& key) const;
  void record(const std::string& key, const YAML::Node& value);

  YAML::Node root_;
  YAML::Node resolved_;
  std::string source_;
  std::map<std::string, std::string> origins_;  ///< dotted key -> "line 3" or "--set ..."
  std::set<std::string> read_;
  std::string algorithm_, family_;
};

template <typename T>
T ConfigReader::get(const std::string& key, const T& fallback) {
  const YAML::Node node = find(key);
  T value = fallback;
  if (node && node.IsNull())
    throw ConfigError(where(key) +
                      ": has no value (give one, or leave the key out for the default)");
  if (node) {
    const std::string why = node.IsScalar()               ? read_scalar(node, value)
                            : std::is_same_v<T, bool>     ? std::string("expected true or false")
                            : std::is_floating_point_v<T> ? std::string("expected a number")
                            : std::is_unsigned_v<T>       ? std::string("expected an integer >= 0")
                            : std::is_integral_v<T>       ? std::string("expected an integer")
                                                          : std::string("expected a text value");
    if (!why.empty())
      throw ConfigError(where(key) + ": has the wrong type (" + why + "), got '" +
                        shorten(text_of(key)) + "'");
    if constexpr (std::is_floating_point_v<T>) {
      if (!std::isfinite(value))
        throw ConfigError(where(key) + ": must be a finite number, got '" + shorten(text_of(key)) +
                          "'");
    }
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
      check_bounds(key, static_cast<double>(value));
  }
  check_catalog(key);
  if constexpr (std::is_floating_point_v<T>) {
    record(key, YAML::Node(shortest(value)));  // 0.03, not yaml-cpp's 0.029999999999999999
  } else {
    record(key, YAML::Node(value));
  }
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

}  // namespace fbosim::config
