#include "sim/experiment/config_tree.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include "sim/experiment/config_reader.hpp"
#include "sim/experiment/yaml_scalar.hpp"

namespace fbosim::sim {

namespace {

// "<file>:<line>:<column>", or for a --set value (a line of the command line, named by its
// source "--set ...") "--set ... (column C)".
std::string at(const std::string& source, int line, int column) {
  if (source.rfind("--set ", 0) == 0)
    return line == 0 ? fmt::format("{} (column {})", source, column + 1)
                     : fmt::format("{} (line {}, column {})", source, line + 1, column + 1);
  return fmt::format("{}:{}:{}", source, line + 1, column + 1);
}

std::string at(const std::string& source, const YAML::Mark& m) {
  return m.is_null() ? source : at(source, m.line, m.column);
}

std::string tag_name(const std::string& tag) {
  const std::string core = "tag:yaml.org,2002:";
  return tag.rfind(core, 0) == 0 ? "!!" + tag.substr(core.size()) : tag;
}

// The bytes YAML text may hold (YAML 1.2.2, sec. 5.1: c-printable, UTF-8): refuses control
// characters (C1 included, and U+0085, a line break in YAML 1.1), a lone carriage return
// (yaml-cpp does not take it for a line break) and invalid UTF-8, naming line and column.
void check_characters(const std::string& text, const std::string& source) {
  int line = 1;
  std::size_t line_start = 0;
  const auto fail = [&](std::size_t i, const std::string& what) {
    throw ConfigError(fmt::format(
        "{}: {}: a config is YAML text (UTF-8, no control characters but tab and line ends)",
        at(source, line - 1, static_cast<int>(i - line_start)), what));
  };
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char c = s[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
      continue;
    }
    if (c == '\r') {
      if (i + 1 < n && s[i + 1] == '\n') continue;
      fail(i, "a carriage return without a line feed (old Mac line ends; use LF or CRLF)");
    }
    if (c == 0) fail(i, "a NUL byte");
    if ((c < 0x20 && c != '\t') || c == 0x7f)
      fail(i, fmt::format("the control character 0x{:02x}", c));
    if (c < 0x80) continue;
    // A UTF-8 sequence: its length, the smallest code point it may encode (no overlongs).
    const int extra = c >= 0xc2 && c <= 0xdf   ? 1
                      : c >= 0xe0 && c <= 0xef ? 2
                      : c >= 0xf0 && c <= 0xf4 ? 3
                                               : -1;
    std::uint32_t cp = extra == 3 ? c & 0x07 : extra == 2 ? c & 0x0f : c & 0x1f;
    bool ok = extra > 0;
    for (int k = 1; ok && k <= extra; ++k) {
      if (i + k >= n || (s[i + k] & 0xc0) != 0x80) {
        ok = false;
      } else {
        cp = (cp << 6) | (s[i + k] & 0x3f);
      }
    }
    const std::uint32_t least = extra == 3 ? 0x10000 : extra == 2 ? 0x800 : 0x80;
    if (!ok || cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      fail(i, fmt::format("invalid UTF-8 (byte 0x{:02x})", c));
    if ((cp >= 0x80 && cp <= 0x9f) || cp == 0xfffe || cp == 0xffff)
      fail(i, fmt::format("the control character U+{:04X}", cp));
    i += static_cast<std::size_t>(extra);
  }
}

// One pass over the parse events, before the tree is built: one document, known tags whose
// values agree with them, and the number of values with aliases expanded (counted as the
// parse goes, so an alias bomb stops at the bound).
class StrictEvents : public YAML::EventHandler {
 public:
  explicit StrictEvents(const std::string& source) : source_(source) {}

  void OnDocumentStart(const YAML::Mark& mark) override {
    ++documents_;
    document_ = mark;
    total_ = 0;
    anchored_.clear();
  }
  void OnDocumentEnd() override {}
  // A lone null is an empty document, harmless after the first (inside a collection of a
  // later document, the collection was refused already).
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    add(mark, 1);
    if (anchor) anchored_[anchor] = 1;
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    content(mark);
    const auto it = anchored_.find(anchor);
    add(mark, it == anchored_.end() ? 1 : it->second);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    content(mark);
    check_scalar_tag(mark, tag, value);
    add(mark, 1);
    if (anchor) anchored_[anchor] = 1;
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, tag, anchor, "seq");
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, tag, anchor, "map");
  }
  void OnMapEnd() override { close(); }

 private:
  struct Frame {
    YAML::anchor_t anchor;
    std::size_t start;
  };

  [[noreturn]] void second_document(const YAML::Mark& mark) const {
    throw ConfigError(fmt::format(
        "{}: a second YAML document (after '---' or '...', from line {}): a config is one "
        "document, and fbosim would read only the first",
        at(source_, mark), document_.line + 1));
  }
  // A value of a document after the first (an empty one, a lone null, is harmless).
  void content(const YAML::Mark& mark) const {
    if (documents_ > 1) second_document(mark);
  }
  void add(const YAML::Mark& mark, std::size_t count) {
    total_ += count;
    if (total_ > kMaxConfigNodes)
      throw ConfigError(fmt::format(
          "{}: more than {} YAML values (aliases expanded): no config holds that many; is it "
          "an alias bomb or not a config?",
          at(source_, mark), kMaxConfigNodes));
  }
  void open(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
            const char* kind) {
    content(mark);
    if (!(tag.empty() || tag == "?" || tag == "!" ||
          tag == "tag:yaml.org,2002:" + std::string(kind)))
      throw ConfigError(fmt::format(
          "{}: the YAML tag '{}' is not one fbosim reads (a {} may have "
          "none, or !!{})",
          at(source_, mark), tag_name(tag), std::string(kind) == "map" ? "mapping" : "list", kind));
    add(mark, 1);
    frames_.push_back({anchor, total_ - 1});
  }
  void close() {
    const Frame f = frames_.back();
    frames_.pop_back();
    if (f.anchor) anchored_[f.anchor] = total_ - f.start;
  }
  void check_scalar_tag(const YAML::Mark& mark, const std::string& tag,
                        const std::string& value) const {
    if (!known_tag(tag) || tag == "tag:yaml.org,2002:map" || tag == "tag:yaml.org,2002:seq")
      throw ConfigError(fmt::format(
          "{}: the YAML tag '{}' is not one fbosim reads (a value may have none, or !!str, "
          "!!int, !!float, !!bool or !!null)",
          at(source_, mark), tag_name(tag)));
    const std::string core = "tag:yaml.org,2002:";
    if (tag.rfind(core, 0) != 0 || tag == core + "str") return;
    const YamlType plain = plain_type(value);
    const bool agrees = tag == core + "int" ? plain == YamlType::integer
                        : tag == core + "float"
                            ? plain == YamlType::integer || plain == YamlType::floating
                        : tag == core + "bool" ? plain == YamlType::boolean
                                               : plain == YamlType::null;
    if (!agrees)
      throw ConfigError(fmt::format("{}: '{}' is not a valid {} (YAML 1.2 core schema)",
                                    at(source_, mark), shorten(value), tag_name(tag)));
  }

  std::string source_;
  int documents_ = 0;
  YAML::Mark document_;
  std::size_t total_ = 0;
  std::vector<Frame> frames_;
  std::unordered_map<YAML::anchor_t, std::size_t> anchored_;
};

// yaml-cpp's message for text it cannot parse, with a hint where it is a tab.
std::string parse_error(const std::string& text, const std::string& source,
                        const YAML::ParserException& e) {
  std::string msg = fmt::format("{}: malformed YAML: {}", at(source, e.mark), e.msg);
  std::istringstream in(text);
  std::string line;
  for (int k = 0; k <= e.mark.line && std::getline(in, line); ++k) {
  }
  const std::size_t indent = line.find_first_not_of(" \t");
  const std::size_t colon = line.find(": ");
  if (line.substr(0, indent).find('\t') != std::string::npos) {
    msg +=
        fmt::format(" (line {} is indented with a tab: YAML indents with spaces)", e.mark.line + 1);
  } else if (colon != std::string::npos && colon > 1024 && e.mark.column >= 1024) {
    msg += " (a key of more than 1024 characters: YAML allows none unless written after '? ')";
  }
  return msg;
}

}  // namespace

YAML::Node parse_yaml_strictly(const std::string& text, const std::string& source) {
  if (text.size() > kMaxConfigBytes)
    throw ConfigError(
        fmt::format("{}: {} bytes, more than the {} bytes (1 MiB) a config may "
                    "hold: is it a config?",
                    source, text.size(), kMaxConfigBytes));
  check_characters(text, source);
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    StrictEvents events(source);
    while (parser.HandleNextDocument(events)) {
    }
    return YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    throw ConfigError(
        fmt::format("{}: the YAML nests deeper than fbosim reads (no key nests more than 3 levels)",
                    at(source, e.mark)));
  } catch (const YAML::ParserException& e) {
    throw ConfigError(parse_error(text, source, e));
  }
}

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

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
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
  const std::string key = trim(assignment.substr(0, eq));
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

}  // namespace fbosim::sim
