#include "sim/config/config_reader.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "sim/config/config_tree.hpp"
#include "sim/config/key_catalog.hpp"

namespace fbosim::config {

namespace {
std::vector<std::string> split_key(const std::string& key) {
  std::vector<std::string> parts;
  std::stringstream ss(key);
  std::string part;
  while (std::getline(ss, part, '.')) parts.push_back(part);
  return parts;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string best = closest_match(word, candidates);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

std::string shortest(double x) { return fmt::format("{}", x); }

std::string shorten(const std::string& text) {
  return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}

ConfigReader::ConfigReader(const ConfigTree& tree, std::string source)
    : root_(tree.to_yaml()),
      resolved_(YAML::NodeType::Map),
      source_(std::move(source)),
      origins_(tree.origins()) {}

// Walks by const handles: assigning one yaml-cpp node handle to another rebinds the node it
// refers to inside the tree, so the walk copies into a fresh handle at every step.
YAML::Node ConfigReader::find(const std::string& key) const {
  std::vector<YAML::Node> chain{root_};
  std::string path;
  for (const std::string& part : split_key(key)) {
    const YAML::Node& node = chain.back();
    if (!node.IsMap()) {
      throw ConfigError(where(path) + ": must be a mapping (it holds '" + key + "'), got '" +
                        shorten(yaml_text_of(node)) + "'");
    }
    path += (path.empty() ? "" : ".") + part;
    const YAML::Node child = node[part];
    if (!child) return YAML::Node(YAML::NodeType::Undefined);  // absent (a Node() is null)
    chain.push_back(child);
  }
  return chain.back();
}

std::string ConfigReader::where(const std::string& key) const {
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

std::string ConfigReader::text_of(const std::string& key) const { return yaml_text_of(find(key)); }

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

void ConfigReader::check_catalog(const std::string& key) const {
  if (!find_key(key))
    throw std::logic_error("config key '" + key +
                           "' is read but not in the key catalog (sim/config/"
                           "key_catalog_entries.cpp)");
}

void ConfigReader::check_bounds(const std::string& key, double value) const {
  const KeyDoc* doc = find_key(key);
  if (!doc || !doc->bounds || doc->bounds->contains(value)) return;
  const KeyDoc::Bounds& b = *doc->bounds;
  require(false, key, std::string("must be ") + (b.lo && b.hi ? "in " : "") + b.text());
}

void ConfigReader::set_context(std::string algorithm, std::string family) {
  algorithm_ = std::move(algorithm);
  family_ = std::move(family);
}

void ConfigReader::require(bool ok, const std::string& key, const std::string& what) const {
  if (!ok) throw ConfigError(where(key) + ": " + what + ", got " + shorten(text_of(key)));
}

int ConfigReader::get_int(const std::string& key, int fallback, int lo, int hi) {
  const int v = get<int>(key, fallback);
  require(v >= lo && v <= hi, key,
          "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

std::string ConfigReader::get_choice(const std::string& key, const std::string& fallback,
                                     const std::vector<std::string>& choices) {
  if (const KeyDoc* doc = find_key(key); doc && doc->choice_list() != choices)
    throw std::logic_error("config key '" + key +
                           "': the reader's choices differ from the key catalog's");
  const std::string value = get<std::string>(key, fallback);
  for (const std::string& c : choices)
    if (c == value) return value;
  std::string list;
  for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
  throw ConfigError(where(key) + ": must be one of " + list + ", got '" + shorten(value) + "'" +
                    did_you_mean(value, choices));
}

void ConfigReader::reject_unknown_keys() const {
  std::vector<std::string> unknown;
  std::function<void(const YAML::Node&, const std::string&)> walk = [&](const YAML::Node& node,
                                                                        const std::string& prefix) {
    for (const auto& kv : node) {
      const std::string key = prefix + kv.first.Scalar();
      if (read_.count(key)) continue;
      // An empty mapping is unknown unless it holds keys that were read (`server: {}`).
      const auto inside = read_.lower_bound(key + ".");
      const bool holds_read = inside != read_.end() && inside->rfind(key + ".", 0) == 0;
      if (kv.second.IsMap() && (kv.second.size() > 0 || holds_read)) {
        walk(kv.second, key + ".");
      } else {
        unknown.push_back(key);
      }
    }
  };
  walk(root_, "");
  if (unknown.empty()) return;
  // A few named in full (each with its line and a suggestion), the rest counted: a message
  // stays a few lines even for thousands of unknown keys.
  constexpr std::size_t kListed = 10;
  const std::vector<std::string> known(read_.begin(), read_.end());
  std::string list;
  for (std::size_t i = 0; i < std::min(unknown.size(), kListed); ++i) {
    const std::string& k = unknown[i];
    list += (list.empty() ? "'" : ", '") + shorten(k) + "'";
    if (const auto it = origins_.find(k); it != origins_.end() && it->second.rfind("line ", 0) == 0)
      list += " (" + it->second + ")";
    const KeyDoc* doc = find_key(k);
    if (doc && !algorithm_.empty() && !doc->read_by(algorithm_)) {
      list += " (a key of algorithm" +
              std::string(doc->algorithms.find(',') != std::string::npos ? "s " : " ") +
              doc->algorithms + ", not of " + algorithm_ + ")";
    } else if (doc && !family_.empty() && !doc->applies_to_family(family_)) {
      list += " (a key of objective.family " + doc->families + ", not of " + family_ + ")";
    } else if (k.size() <= 100) {
      list += did_you_mean(k, known);
    }
  }
  if (unknown.size() > kListed) list += fmt::format(" and {} more", unknown.size() - kListed);
  throw ConfigError(source_ + ": unknown key" + (unknown.size() > 1 ? "s " : " ") + list +
                    " (see docs/CONFIG.md for the keys)");
}

}  // namespace fbosim::config
