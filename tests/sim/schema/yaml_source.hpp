#pragma once
// A schema::Source over a config's keys (ConfigTree: the YAML text, then --set), reading
// values as ConfigReader does (YAML 1.2's core schema, yaml_scalar.hpp) and naming the file,
// line and key in messages: the prototype of the source the config reader will implement, here
// for the tests that compare reading through the schema with the reader of sim/experiment.
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/config/config_reader.hpp"
#include "sim/config/config_tree.hpp"
#include "sim/config/yaml_scalar.hpp"
#include "sim/schema/source.hpp"

namespace fbosim::schema_test {

class YamlSource final : public schema::Source {
 public:
  YamlSource(const config::ConfigTree& tree, std::string source)
      : root_(tree.to_yaml()), origins_(tree.origins()), source_(std::move(source)) {}

  Presence presence(const std::string& path) const override {
    const YAML::Node node = find(path);
    if (!node) return Presence::absent;
    return node.IsNull() ? Presence::null : Presence::given;
  }
  std::string read(const std::string& path, bool& out) const override {
    return read_as(path, out, "expected true or false");
  }
  std::string read(const std::string& path, int& out) const override {
    return read_as(path, out, "expected an integer");
  }
  std::string read(const std::string& path, std::int64_t& out) const override {
    return read_as(path, out, "expected an integer");
  }
  std::string read(const std::string& path, std::uint64_t& out) const override {
    return read_as(path, out, "expected an integer >= 0");
  }
  std::string read(const std::string& path, double& out) const override {
    return read_as(path, out, "expected a number");
  }
  std::string read(const std::string& path, std::string& out) const override {
    return read_as(path, out, "expected a text value");
  }
  std::string where(const std::string& key) const override {
    for (std::string k = key; !k.empty();) {
      if (const auto it = origins_.find(k); it != origins_.end()) {
        if (it->second.rfind("line ", 0) == 0)
          return source_ + ":" + it->second.substr(5) + ": " + key;
        break;
      }
      const auto dot = k.rfind('.');
      k = dot == std::string::npos ? "" : k.substr(0, dot);
    }
    return source_ + ": " + key;
  }
  std::string text(const std::string& path) const override { return config::yaml_text_of(find(path)); }

 private:
  template <class T>
  std::string read_as(const std::string& path, T& out, const char* expected) const {
    const YAML::Node node = find(path);
    return node.IsScalar() ? config::read_scalar(node, out) : std::string(expected);
  }
  YAML::Node find(const std::string& key) const {
    std::vector<YAML::Node> chain{root_};
    std::string path;
    std::stringstream parts(key);
    for (std::string part; std::getline(parts, part, '.');) {
      const YAML::Node& node = chain.back();
      if (!node.IsMap())
        throw config::ConfigError(where(path) + ": must be a mapping (it holds '" + key + "'), got '" +
                               config::shorten(config::yaml_text_of(node)) + "'");
      path += (path.empty() ? "" : ".") + part;
      const YAML::Node child = node[part];
      if (!child) return YAML::Node(YAML::NodeType::Undefined);
      chain.push_back(child);
    }
    return chain.back();
  }

  YAML::Node root_;
  std::map<std::string, std::string> origins_;
  std::string source_;
};

}  // namespace fbosim::schema_test
