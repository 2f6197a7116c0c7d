#include "sim/config/strict_yaml.hpp"

#include <cstdint>
#include <sstream>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include "sim/config/config_reader.hpp"
#include "sim/config/yaml_scalar.hpp"

namespace fbosim::config {

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

}  // namespace fbosim::config
