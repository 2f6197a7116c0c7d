#pragma once
// YAML text parsed strictly, before its keys are read (config_tree.hpp): what yaml-cpp would
// accept but fbosim cannot read faithfully is refused with the source, line and column:
//   - more than kMaxConfigBytes; control characters (but tab and line ends), a lone carriage
//     return, invalid UTF-8;
//   - a second YAML document (after `---` or `...`; a trailing empty one is harmless);
//   - tags other than the core schema's (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq),
//     and core tags that disagree with their value (`!!int abc`);
//   - more than kMaxConfigNodes values with aliases expanded (an alias bomb), counted as the
//     parse goes;
//   - nesting past yaml-cpp's depth guard, named as such rather than in yaml-cpp's words.
#include <cstddef>
#include <string>

#include <yaml-cpp/yaml.h>

namespace fbosim::config {

/// The largest config file (or --set value) read: configs are a few kB; the bound keeps a
/// wrong file (/dev/zero, a data file) from taking time and memory.
inline constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;
/// The most YAML values (scalars, lists, mappings) a config may hold, aliases expanded: the
/// bound on alias bombs ("billion laughs").
inline constexpr std::size_t kMaxConfigNodes = 100000;

/// `text` parsed as one YAML document with the checks above; throws ConfigError
/// "<source>:<line>:<column>: <what>" (for a source "--set ...": "--set ... (column C)").
YAML::Node parse_yaml_strictly(const std::string& text, const std::string& source);

}  // namespace fbosim::config
