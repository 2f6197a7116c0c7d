#include "sim/experiment/config_reader.hpp"

#include <sstream>

namespace fbosim::sim {

namespace {
std::vector<std::string> split_key(const std::string& key) {
  std::vector<std::string> parts;
  std::stringstream ss(key);
  std::string part;
  while (std::getline(ss, part, '.')) parts.push_back(part);
  return parts;
}
}  // namespace

ConfigReader::ConfigReader(YAML::Node root, std::string source)
    : root_(std::move(root)), resolved_(YAML::NodeType::Map), source_(std::move(source)) {
  if (root_.IsNull()) root_ = YAML::Node(YAML::NodeType::Map);
  if (!root_.IsMap()) throw ConfigError(source_ + ": the top level must be a mapping of keys");
}

YAML::Node ConfigReader::find(const std::string& key) const {
  YAML::Node node = YAML::Clone(root_);
  std::string path;
  for (const std::string& part : split_key(key)) {
    if (!node.IsMap()) {
      throw ConfigError(source_ + ": " + path + ": must be a mapping (it holds '" + key +
                        "'), got '" + YAML::Dump(node) + "'");
    }
    path += (path.empty() ? "" : ".") + part;
    node = node[part];
    if (!node) return YAML::Node();
  }
  return node;
}

std::string ConfigReader::text_of(const std::string& key) const {
  const YAML::Node node = find(key);
  if (!node) return "";
  if (node.IsScalar()) return node.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

void ConfigReader::record(const std::string& key, const YAML::Node& value) {
  read_.insert(key);
  const std::vector<std::string> parts = split_key(key);
  // yaml-cpp nodes are handles: walk with a chain of copies to build nested maps.
  std::vector<YAML::Node> chain{resolved_};
  for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
    YAML::Node child = chain.back()[parts[k]];
    if (!child.IsMap()) {
      chain.back()[parts[k]] = YAML::Node(YAML::NodeType::Map);
      child = chain.back()[parts[k]];
    }
    chain.push_back(child);
  }
  chain.back()[parts.back()] = value;
}

void ConfigReader::require(bool ok, const std::string& key, const std::string& what) const {
  if (!ok) throw ConfigError(source_ + ": " + key + ": " + what + ", got " + text_of(key));
}

std::string ConfigReader::get_choice(const std::string& key, const std::string& fallback,
                                     const std::vector<std::string>& choices) {
  const std::string value = get<std::string>(key, fallback);
  for (const std::string& c : choices)
    if (c == value) return value;
  std::string list;
  for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
  throw ConfigError(source_ + ": " + key + ": must be one of " + list + ", got '" + value + "'");
}

void ConfigReader::reject_unknown_keys() const {
  std::vector<std::string> unknown;
  std::function<void(const YAML::Node&, const std::string&)> walk = [&](const YAML::Node& node,
                                                                        const std::string& prefix) {
    for (const auto& kv : node) {
      const std::string key = prefix + kv.first.as<std::string>();
      if (read_.count(key)) continue;
      if (kv.second.IsMap()) {
        walk(kv.second, key + ".");
      } else {
        unknown.push_back(key);
      }
    }
  };
  walk(root_, "");
  if (unknown.empty()) return;
  std::string list;
  for (const std::string& k : unknown) list += (list.empty() ? "'" : ", '") + k + "'";
  throw ConfigError(source_ + ": unknown key" + (unknown.size() > 1 ? "s " : " ") + list +
                    " (see docs/CONFIG.md for the keys)");
}

void ConfigReader::apply_override(YAML::Node& root, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + assignment + ": expected key=value");
  const std::string key = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  YAML::Node value;
  try {
    value = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + assignment + ": value is not valid YAML: " + e.msg);
  }
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  const std::vector<std::string> parts = split_key(key);
  std::vector<YAML::Node> chain{root};
  for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
    YAML::Node child = chain.back()[parts[k]];
    if (!child.IsMap()) {
      if (child.IsDefined() && !child.IsNull())
        throw ConfigError("--set " + assignment + ": '" + parts[k] + "' is not a mapping");
      chain.back()[parts[k]] = YAML::Node(YAML::NodeType::Map);
      child = chain.back()[parts[k]];
    }
    chain.push_back(child);
  }
  chain.back()[parts.back()] = value;
}

}  // namespace fbosim::sim
