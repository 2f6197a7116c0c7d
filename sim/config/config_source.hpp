#pragma once
// The config's keys (ConfigTree: the YAML text, then --set) as a schema::Source: values are
// typed by YAML 1.2's core schema (yaml_scalar.hpp) and every message names the file, the line
// and the key ("<file>:<line>: <key>: ..."). The schema (schema) checks ranges and choices
// and records the resolved value; this class only finds and types values.
#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "schema/record.hpp"
#include "schema/source.hpp"

namespace fbosim::config {

class ConfigTree;

class ConfigSource final : public schema::Source {
 public:
  /// tree: the config's keys (after overrides); source: the file name for messages.
  ConfigSource(const ConfigTree& tree, std::string source);
  /// tree, source, and the record the reader fills: text() of a key left out is then its
  /// defaulted value there ("0.99 (the default)"), so that a message about it never ends with
  /// an empty "got ".
  ConfigSource(const ConfigTree& tree, std::string source, const schema::Record& record);

  Presence presence(const std::string& path) const override;
  std::string read(const std::string& path, bool& out) const override;
  std::string read(const std::string& path, int& out) const override;
  std::string read(const std::string& path, std::int64_t& out) const override;
  std::string read(const std::string& path, std::uint64_t& out) const override;
  std::string read(const std::string& path, double& out) const override;
  std::string read(const std::string& path, std::string& out) const override;
  /// A YAML sequence (block or flow), each item a number as read(double) takes it.
  std::string read(const std::string& path, std::vector<double>& out) const override;
  /// "<source>:<line>: <key>" for a key given in the file (or inside a value given there),
  /// else "<source>: <key>".
  std::string where(const std::string& key) const override;
  /// The value as written; for a key left out, its value in the record, marked "(the
  /// default)", or "" where none is recorded.
  std::string text(const std::string& path) const override;

  const std::string& source() const { return source_; }
  /// Every key given (dotted), as the tree holds them, that is not in `known` (sorted paths of
  /// the keys read); an empty mapping is unknown unless it holds keys that were read
  /// (`server: {}`). In the order given.
  std::vector<std::string> unknown_keys(const std::vector<std::string>& known) const;
  /// "line 3" or "--set a.b=1" for a key given, else "".
  std::string origin(const std::string& key) const;

 private:
  YAML::Node find(const std::string& key) const;
  template <class T>
  std::string read_as(const std::string& path, T& out, const char* expected) const;

  YAML::Node root_;
  std::map<std::string, std::string> origins_;  ///< dotted key -> "line 3" or "--set ..."
  std::string source_;
  const schema::Record* record_ = nullptr;
};

}  // namespace fbosim::config
