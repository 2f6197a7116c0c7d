#include "sim/config/config_tree.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "sim/config/config_reader.hpp"
#include "sim/config/yaml_scalar.hpp"
#include "core/text.hpp"

namespace fbosim::config {

std::vector<std::string> split_dotted_key(const std::string& key, const std::string& where) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t dot = key.find('.', begin);
    parts.push_back(key.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin));
    if (parts.back().empty())
      throw ConfigError(
          fmt::format("{}: the key '{}' has an empty part (a dotted key is a "
                      "path: names between the dots)",
                      where, shorten(key)));
    if (dot == std::string::npos) return parts;
    begin = dot + 1;
  }
}

// A key's value: a mapping of further keys, or a leaf (a scalar, a list or null) kept as the
// parsed node (with its line and tag).
struct ConfigTree::Node {
  std::string origin;  ///< "line 3" or "--set a.b=1"
  bool map = false;
  YAML::Node leaf;
  std::vector<std::pair<std::string, std::unique_ptr<Node>>> entries;
  std::unordered_map<std::string, std::size_t> index;

  Node* find(const std::string& key) const {
    const auto it = index.find(key);
    return it == index.end() ? nullptr : entries[it->second].second.get();
  }
  Node& put(const std::string& key, std::unique_ptr<Node> node) {
    const auto [it, fresh] = index.emplace(key, entries.size());
    if (fresh) {
      entries.emplace_back(key, std::move(node));
    } else {
      entries[it->second].second = std::move(node);
    }
    return *entries[it->second].second;
  }
  static std::unique_ptr<Node> mapping(std::string origin) {
    auto n = std::make_unique<Node>();
    n->origin = std::move(origin);
    n->map = true;
    return n;
  }
};

namespace {

using Node = ConfigTree::Node;

std::string line_text(const YAML::Mark& m) {
  return m.is_null() ? "the value" : "line " + std::to_string(m.line + 1);
}

// A key path deeper than kMaxKeyDepth is refused before the tree grows that deep (its walks
// recurse by level).
void check_depth(std::size_t depth, const std::string& key, const std::string& where) {
  if (depth > kMaxKeyDepth)
    throw ConfigError(
        fmt::format("{}: the key '{}' is {} levels deep; no key is more than 3, and "
                    "more than {} are refused",
                    where, shorten(key), depth, kMaxKeyDepth));
}

// The entries of one YAML mapping merged into `dst` (whose dotted path is `prefix`): a key
// given twice in the mapping, or a path given by two spellings unless both are mappings, is an
// error naming both places.
void merge_yaml_map(Node& dst, const YAML::Node& map, const std::string& prefix, std::size_t depth,
                    const std::string& source, bool file) {
  // In a --set value, every key was given by that --set (the value's own lines mean nothing).
  const auto line_of = [&](const YAML::Mark& m) { return file ? line_text(m) : source; };
  std::unordered_map<std::string, YAML::Mark> literal;
  for (const auto& kv : map) {
    const YAML::Node& key = kv.first;
    const std::string here =
        !file || key.Mark().is_null() ? source : fmt::format("{}:{}", source, key.Mark().line + 1);
    if (!key.IsScalar())
      throw ConfigError(
          fmt::format("{}: a key must be a name, got '{}'{}", here,
                      shorten(key.IsNull() ? "~" : yaml_text_of(key)),
                      prefix.empty() ? "" : " (in " + prefix.substr(0, prefix.size() - 1) + ")"));
    const std::string& text = key.Scalar();
    if (const auto [it, fresh] = literal.emplace(text, key.Mark()); !fresh)
      throw ConfigError(
          file ? fmt::format("{}: {}{}: the key appears twice ({} and {}); give it once", source,
                             prefix, shorten(text), line_of(it->second), line_of(key.Mark()))
               : fmt::format("{}: {}{}: the key appears twice in the value; give it once", source,
                             prefix, shorten(text)));
    if (text == "<<" && (key.Tag() == "?" || key.Tag().empty()))
      throw ConfigError(
          fmt::format("{}: '<<' (a YAML 1.1 merge key) is not read by fbosim: "
                      "write the keys out",
                      here));
    const std::vector<std::string> parts = split_dotted_key(text, here);
    check_depth(depth + parts.size(), prefix + text, here);
    const std::string origin = line_of(key.Mark());
    Node* cur = &dst;
    std::string path = prefix;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      path += parts[k];
      const bool last = k + 1 == parts.size();
      Node* child = cur->find(parts[k]);
      if (last && !kv.second.IsMap()) {
        if (child)
          throw ConfigError(fmt::format("{}: {}: the key is given twice ({} and {}); give it once",
                                        source, shorten(path), child->origin, origin));
        auto leaf = std::make_unique<Node>();
        leaf->origin = origin;
        leaf->leaf = kv.second;
        cur->put(parts[k], std::move(leaf));
        break;
      }
      if (!child) {
        child = &cur->put(parts[k], Node::mapping(origin));
      } else if (!child->map) {
        throw ConfigError(fmt::format("{}: {}: the key is given twice ({}, and {}{}); give it once",
                                      source, shorten(path), child->origin, origin,
                                      last ? "" : " through '" + shorten(prefix + text) + "'"));
      }
      cur = child;
      if (last) merge_yaml_map(*cur, kv.second, path + ".", depth + parts.size(), source, file);
      path += ".";
    }
  }
}

// src laid over dst (--set): mappings merge key by key, anything else replaces.
void overlay(Node& dst, Node& src) {
  for (auto& [key, value] : src.entries) {
    Node* mine = dst.find(key);
    if (mine && mine->map && value->map) {
      overlay(*mine, *value);
    } else {
      dst.put(key, std::move(value));
    }
  }
}

YAML::Node yaml_of(const Node& n) {
  if (!n.map) return n.leaf;
  YAML::Node out(YAML::NodeType::Map);
  for (const auto& [key, value] : n.entries) out.force_insert(key, yaml_of(*value));
  return out;
}

void collect_origins(const Node& n, const std::string& prefix,
                     std::map<std::string, std::string>& out) {
  for (const auto& [key, value] : n.entries) {
    out.emplace(prefix + key, value->origin);
    if (value->map) collect_origins(*value, prefix + key + ".", out);
  }
}

// Control characters as escapes (\n, \x01), so that a message stays one line.
std::string printable(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out;
}

// A --set value that is one plain scalar of safe characters (3, 0.5, fts_de, results/x):
// read without a YAML parse, so that thousands of --set cost little.
bool simple_plain(const std::string& text) {
  if (text.empty() || text.size() > 200) return false;
  const auto safe = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '+' || c == '-' || c == '/';
  };
  const char c0 = text[0];
  const bool start =
      (c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || (c0 >= '0' && c0 <= '9') || c0 == '_';
  return start && std::all_of(text.begin(), text.end(), safe) && plain_type(text) != YamlType::null;
}

}  // namespace

ConfigTree::ConfigTree(std::string source) : source_(std::move(source)), root_(Node::mapping("")) {}
ConfigTree::ConfigTree(ConfigTree&&) noexcept = default;
ConfigTree& ConfigTree::operator=(ConfigTree&&) noexcept = default;
ConfigTree::~ConfigTree() = default;

ConfigTree ConfigTree::from_text(const std::string& text, const std::string& source) {
  return from_yaml(parse_yaml_strictly(text, source), source);
}

ConfigTree ConfigTree::from_yaml(const YAML::Node& root, const std::string& source) {
  ConfigTree tree(source);
  if (!root || root.IsNull()) return tree;
  if (!root.IsMap())
    throw ConfigError(
        fmt::format("{}: the top level must be a mapping of keys (key: value), "
                    "got '{}'",
                    source, shorten(yaml_text_of(root))));
  merge_yaml_map(*tree.root_, root, "", 0, source, true);
  return tree;
}

void ConfigTree::remove(const std::string& key) {
  auto& e = root_->entries;
  e.erase(std::remove_if(e.begin(), e.end(), [&](const auto& kv) { return kv.first == key; }),
          e.end());
  root_->index.clear();
  for (std::size_t i = 0; i < e.size(); ++i) root_->index.emplace(e[i].first, i);
}

void ConfigTree::apply_override(const std::string& assignment) {
  const std::string where = "--set " + shorten(printable(assignment));
  const auto eq = assignment.find('=');
  const std::string key = core::trim(assignment.substr(0, eq));
  if (eq == std::string::npos || key.empty()) throw ConfigError(where + ": expected key=value");
  const std::vector<std::string> parts = split_dotted_key(key, where);
  check_depth(parts.size(), key, where);
  const std::string text = assignment.substr(eq + 1);
  auto value = std::make_unique<Node>();
  value->origin = where;
  if (simple_plain(text)) {
    value->leaf = YAML::Node(text);
  } else {
    const YAML::Node parsed = parse_yaml_strictly(text, where);
    if (parsed.IsMap()) {
      value->map = true;
      merge_yaml_map(*value, parsed, key + ".", parts.size(), where, false);
    } else {
      value->leaf = parsed;
    }
  }
  Node* cur = root_.get();
  for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
    Node* child = cur->find(parts[k]);
    if (!child || (!child->map && child->leaf.IsNull())) {
      child = &cur->put(parts[k], Node::mapping(where));
    } else if (!child->map) {
      throw ConfigError(fmt::format("{}: '{}' is not a mapping (it is given '{}' at {})", where,
                                    parts[k], shorten(yaml_text_of(child->leaf)), child->origin));
    }
    cur = child;
  }
  Node* old = cur->find(parts.back());
  if (old && old->map && value->map) {
    overlay(*old, *value);
  } else {
    cur->put(parts.back(), std::move(value));
  }
}

YAML::Node ConfigTree::to_yaml() const { return yaml_of(*root_); }

std::map<std::string, std::string> ConfigTree::origins() const {
  std::map<std::string, std::string> out;
  collect_origins(*root_, "", out);
  return out;
}

}  // namespace fbosim::config
