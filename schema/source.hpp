#pragma once
// Where a schema reads its values from: an abstract tree of values by dotted path, which the
// config reader implements over YAML (sim/config) and tests over a map (MapSource). A source
// types its own values (YAML 1.2's core schema for the config reader) and says where a key
// was given, for messages; the schema checks ranges and choices and records the result.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "schema/value.hpp"

namespace fbosim::schema {

class Source {
 public:
  /// A key's state in the source: not there, there without a value (`key:`), or given.
  enum class Presence { absent, null, given };

  virtual ~Source() = default;
  virtual Presence presence(const std::string& path) const = 0;
  // Reads the given value at `path` as the type. Each returns "" when `out` was set, else what
  // was expected and why the value is not that ("expected an integer; a quoted value is
  // text: ..."), the words inside the schema's "has the wrong type (...)". A text key takes
  // any scalar as written. Doubles may come back non-finite: the schema refuses them.
  virtual std::string read(const std::string& path, bool& out) const = 0;
  virtual std::string read(const std::string& path, int& out) const = 0;
  virtual std::string read(const std::string& path, std::int64_t& out) const = 0;
  virtual std::string read(const std::string& path, std::uint64_t& out) const = 0;
  virtual std::string read(const std::string& path, double& out) const = 0;
  virtual std::string read(const std::string& path, std::string& out) const = 0;
  /// A list of numbers (a YAML sequence); each item typed as a double is.
  virtual std::string read(const std::string& path, std::vector<double>& out) const = 0;
  /// "<file>:<line>: <path>" for a key given in a file, else "<file>: <path>": the start of a
  /// message about the key.
  virtual std::string where(const std::string& path) const = 0;
  /// The value as written ("3", "\"3\"", a flow mapping), for messages.
  virtual std::string text(const std::string& path) const = 0;
};

/// A source over a map of dotted paths to values (a mapped-to nullopt is a key given without a
/// value), named `name` in messages. Types strictly: a bool only from a bool, an integer only
/// from an integer (in the type's range), a double from any number, a list only from a list; a
/// text key takes any value, as to_text writes it.
class MapSource final : public Source {
 public:
  explicit MapSource(std::map<std::string, std::optional<Value>> values,
                     std::string name = "config");
  Presence presence(const std::string& path) const override;
  std::string read(const std::string& path, bool& out) const override;
  std::string read(const std::string& path, int& out) const override;
  std::string read(const std::string& path, std::int64_t& out) const override;
  std::string read(const std::string& path, std::uint64_t& out) const override;
  std::string read(const std::string& path, double& out) const override;
  std::string read(const std::string& path, std::string& out) const override;
  std::string read(const std::string& path, std::vector<double>& out) const override;
  std::string where(const std::string& path) const override;
  std::string text(const std::string& path) const override;

 private:
  const Value* value(const std::string& path) const;
  std::map<std::string, std::optional<Value>> values_;
  std::string name_;
};

}  // namespace fbosim::schema
