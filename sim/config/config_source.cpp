#include "sim/config/config_source.hpp"

#include <algorithm>
#include <functional>
#include <sstream>

#include "sim/config/config_reader.hpp"
#include "sim/config/config_tree.hpp"
#include "sim/config/yaml_scalar.hpp"

namespace fbosim::config {

ConfigSource::ConfigSource(const ConfigTree& tree, std::string source)
    : root_(tree.to_yaml()), origins_(tree.origins()), source_(std::move(source)) {}

// Walks by const handles: assigning one yaml-cpp node handle to another rebinds the node it
// refers to inside the tree, so the walk copies into a fresh handle at every step.
YAML::Node ConfigSource::find(const std::string& key) const {
  std::vector<YAML::Node> chain{root_};
  std::string path;
  std::stringstream parts(key);
  for (std::string part; std::getline(parts, part, '.');) {
    const YAML::Node& node = chain.back();
    if (!node.IsMap())
      throw ConfigError(where(path) + ": must be a mapping (it holds '" + key + "'), got '" +
                        shorten(yaml_text_of(node)) + "'");
    path += (path.empty() ? "" : ".") + part;
    const YAML::Node child = node[part];
    if (!child) return YAML::Node(YAML::NodeType::Undefined);  // absent (a Node() is null)
    chain.push_back(child);
  }
  return chain.back();
}

schema::Source::Presence ConfigSource::presence(const std::string& path) const {
  const YAML::Node node = find(path);
  if (!node) return Presence::absent;
  return node.IsNull() ? Presence::null : Presence::given;
}

template <class T>
std::string ConfigSource::read_as(const std::string& path, T& out, const char* expected) const {
  const YAML::Node node = find(path);
  return node.IsScalar() ? read_scalar(node, out) : std::string(expected);
}

std::string ConfigSource::read(const std::string& path, bool& out) const {
  return read_as(path, out, "expected true or false");
}
std::string ConfigSource::read(const std::string& path, int& out) const {
  return read_as(path, out, "expected an integer");
}
std::string ConfigSource::read(const std::string& path, std::int64_t& out) const {
  return read_as(path, out, "expected an integer");
}
std::string ConfigSource::read(const std::string& path, std::uint64_t& out) const {
  return read_as(path, out, "expected an integer >= 0");
}
std::string ConfigSource::read(const std::string& path, double& out) const {
  return read_as(path, out, "expected a number");
}
std::string ConfigSource::read(const std::string& path, std::string& out) const {
  return read_as(path, out, "expected a text value");
}

std::string ConfigSource::read(const std::string& path, std::vector<double>& out) const {
  const YAML::Node node = find(path);
  if (!node.IsSequence()) return "expected a list of numbers, e.g. [0.1, 0.3]";
  std::vector<double> items;
  for (std::size_t i = 0; i < node.size(); ++i) {
    const YAML::Node item = node[i];
    double v = 0;
    const std::string why =
        item.IsScalar() ? read_scalar(item, v) : std::string("expected a number");
    if (!why.empty())
      return "expected a list of numbers; item " + std::to_string(i + 1) + ": " + why;
    items.push_back(v);
  }
  out = std::move(items);
  return "";
}

std::string ConfigSource::where(const std::string& key) const {
  // The key itself, or the nearest enclosing key given (a key inside a value given as text).
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

ConfigSource::ConfigSource(const ConfigTree& tree, std::string source, const schema::Record& record)
    : ConfigSource(tree, std::move(source)) {
  record_ = &record;
}

std::string ConfigSource::text(const std::string& path) const {
  const YAML::Node n = find(path);
  if (n.IsDefined() || !record_) return yaml_text_of(n);
  const schema::Resolved* r = record_->find(path);
  // A key with no default (one the message asks the user to give) has no value to show.
  return r && !r->text.empty() ? r->text + " (the default)" : "";
}

std::string ConfigSource::origin(const std::string& key) const {
  const auto it = origins_.find(key);
  return it == origins_.end() ? "" : it->second;
}

std::vector<std::string> ConfigSource::unknown_keys(const std::vector<std::string>& known) const {
  const auto is_known = [&](const std::string& k) {
    return std::binary_search(known.begin(), known.end(), k);
  };
  std::vector<std::string> unknown;
  std::function<void(const YAML::Node&, const std::string&)> walk = [&](const YAML::Node& node,
                                                                        const std::string& prefix) {
    for (const auto& kv : node) {
      const std::string key = prefix + kv.first.Scalar();
      if (is_known(key)) continue;
      const auto inside = std::lower_bound(known.begin(), known.end(), key + ".");
      const bool holds_read = inside != known.end() && inside->rfind(key + ".", 0) == 0;
      if (kv.second.IsMap() && (kv.second.size() > 0 || holds_read)) {
        walk(kv.second, key + ".");
      } else {
        unknown.push_back(key);
      }
    }
  };
  walk(root_, "");
  return unknown;
}

}  // namespace fbosim::config
