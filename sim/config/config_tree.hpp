#pragma once
// A config as a tree of keys, read strictly from YAML text: what fbosim cannot read faithfully
// is refused with the file, line and key, never ignored (docs/CONFIG.md, "How a config file is
// read"):
//   - the text: as parse_yaml_strictly checks it (strict_yaml.hpp);
//   - the keys: names (not null, lists or maps), at most kMaxKeyDepth levels deep; a dotted
//     key is a path, read exactly as `--set` reads it (`server.dp: false` is `server: {dp:
//     false}`); every key is given once, in whichever spelling, and the YAML 1.1 merge key
//     `<<` is refused.
// `--set` overrides are applied in order on top: the last one given for a key wins, and a
// mapping value sets the keys it names and leaves the others (`--set server={dp: false}` is
// `--set server.dp=false`).
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/config/strict_yaml.hpp"

namespace fbosim::config {

/// The most levels of a key path (a.b.c is 3; fbosim's deepest keys have 3), dotted and nested
/// together: the bound on the recursion of the tree's walks.
inline constexpr std::size_t kMaxKeyDepth = 64;

/// "a.b.c" -> {"a", "b", "c"}; throws ConfigError "<where>: ..." if a part is empty ("a..b").
std::vector<std::string> split_dotted_key(const std::string& key, const std::string& where);

class ConfigTree {
 public:
  /// The keys of the config text (an empty document: none). source names it in messages.
  static ConfigTree from_text(const std::string& text, const std::string& source);
  /// The same from the text parsed by parse_yaml_strictly.
  static ConfigTree from_yaml(const YAML::Node& root, const std::string& source);
  ConfigTree(ConfigTree&&) noexcept;
  ConfigTree& operator=(ConfigTree&&) noexcept;
  ~ConfigTree();

  /// Drops a top-level key and all it holds (the `sweep:` section of a single experiment).
  void remove(const std::string& key);
  /// Applies `key=value` (--set; the value is YAML text) on top of the keys given so far.
  void apply_override(const std::string& assignment);
  /// The tree as a yaml-cpp mapping for ConfigSource (the values keep their lines and tags).
  YAML::Node to_yaml() const;
  /// Where every key was given, by dotted key: "line 3" or "--set a.b=1".
  std::map<std::string, std::string> origins() const;

  struct Node;

 private:
  explicit ConfigTree(std::string source);
  std::string source_;
  std::unique_ptr<Node> root_;
};

}  // namespace fbosim::config
