#include "sim/experiment/config_reader.hpp"

#include "sim/experiment/key_catalog.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include <fmt/format.h>

namespace fbosim::sim {

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

std::string line_of(const YAML::Node& key) {
  const YAML::Mark m = key.Mark();
  return m.is_null() ? std::string("a --set") : "line " + std::to_string(m.line + 1);
}

// yaml-cpp keeps every entry of a mapping that repeats a key, and lookups find the first: a
// repeated key would silently drop the later value, so it is an error.
void reject_duplicate_keys(const YAML::Node& node, const std::string& prefix,
                           const std::string& source) {
  if (!node.IsMap()) return;
  std::map<std::string, YAML::Node> seen;
  for (const auto& kv : node) {
    if (!kv.first.IsScalar()) {
      YAML::Emitter out;
      out << YAML::Flow << kv.first;
      throw ConfigError(source + ": " + line_of(kv.first) + ": a key must be a name, got '" +
                        shorten(out.c_str()) + "'" +
                        (prefix.empty() ? "" : " (in " + prefix + ")"));
    }
    const std::string key = kv.first.Scalar();
    const auto [it, fresh] = seen.emplace(key, kv.first);
    if (!fresh)
      throw ConfigError(source + ": " + prefix + key + ": the key appears twice (" +
                        line_of(it->second) + " and " + line_of(kv.first) + "); give it once");
    reject_duplicate_keys(kv.second, prefix + key + ".", source);
  }
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

ConfigReader::ConfigReader(YAML::Node root, std::string source)
    : root_(std::move(root)), resolved_(YAML::NodeType::Map), source_(std::move(source)) {
  if (root_.IsNull()) root_ = YAML::Node(YAML::NodeType::Map);
  if (!root_.IsMap()) throw ConfigError(source_ + ": the top level must be a mapping of keys");
  reject_duplicate_keys(root_, "", source_);
}

YAML::Node ConfigReader::find(const std::string& key) const {
  YAML::Node node = YAML::Clone(root_);
  std::string path;
  for (const std::string& part : split_key(key)) {
    if (!node.IsMap()) {
      throw ConfigError(source_ + ": " + path + ": must be a mapping (it holds '" + key +
                        "'), got '" + shorten(YAML::Dump(node)) + "'");
    }
    path += (path.empty() ? "" : ".") + part;
    node = node[part];
    if (!node) return YAML::Node(YAML::NodeType::Undefined);  // absent (a Node() is null)
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

void ConfigReader::check_catalog(const std::string& key) const {
  if (!find_key(key))
    throw std::logic_error("config key '" + key +
                           "' is read but not in the key catalog (sim/experiment/"
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
  if (!ok) throw ConfigError(source_ + ": " + key + ": " + what + ", got " + shorten(text_of(key)));
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
  throw ConfigError(source_ + ": " + key + ": must be one of " + list + ", got '" + shorten(value) +
                    "'" + did_you_mean(value, choices));
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
  const std::vector<std::string> known(read_.begin(), read_.end());
  std::string list;
  for (const std::string& k : unknown) {
    list += (list.empty() ? "'" : ", '") + k + "'";
    const KeyDoc* doc = find_key(k);
    if (doc && !algorithm_.empty() && !doc->read_by(algorithm_)) {
      list += " (a key of algorithm" +
              std::string(doc->algorithms.find(',') != std::string::npos ? "s " : " ") +
              doc->algorithms + ", not of " + algorithm_ + ")";
    } else if (doc && !family_.empty() && !doc->applies_to_family(family_)) {
      list += " (a key of objective.family " + doc->families + ", not of " + family_ + ")";
    } else {
      list += did_you_mean(k, known);
    }
  }
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
