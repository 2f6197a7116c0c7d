#pragma once
// The value of a YAML scalar under YAML 1.2's core schema (YAML 1.2.2, sec. 10.3), the reading
// every key of a config gets. A plain scalar is typed by its text (`3` an integer, `0.5` and
// `1e3` floating-point numbers, `true` a boolean, `~` null, anything else text); a quoted one,
// or one tagged `!!str`, is text; `!!int`, `!!float`, `!!bool` and `!!null` type it
// explicitly. A number key takes only a number, a boolean key only true or false; a text key
// takes any scalar, as written. Spellings that YAML 1.1 reads otherwise (`yes`, `on`, octal
// `010`, `1_000`) are refused for number and boolean keys with a hint, never read silently
// one way or the other (docs/CONFIG.md, "How values are read").
#include <cstdint>
#include <string>

#include <yaml-cpp/yaml.h>

namespace fbosim::config {

enum class YamlType { null, boolean, integer, floating, string };

/// The core schema's type of a plain (untagged, unquoted) scalar's text.
YamlType plain_type(const std::string& text);
/// The type of a scalar node: by its tag ("?" or "": plain, "!": quoted, core tags), or by its
/// text when plain. A null node is null.
YamlType yaml_type(const YAML::Node& node);
/// True for the tags fbosim reads: none, "!" (a quoted scalar), and the core schema's
/// !!str, !!int, !!float, !!bool, !!null, !!map, !!seq.
bool known_tag(const std::string& tag);
/// The node as the user wrote it, for messages: "3", "\"3\"" (quoted), "!!str 3", or a
/// mapping or sequence in flow style.
std::string yaml_text_of(const YAML::Node& node);

// Reads a scalar node as the key's type. Each returns "" when `value` was set, else what was
// expected and why the node is not that ("expected an integer; ..."), for the message.
std::string read_scalar(const YAML::Node& node, bool& value);
std::string read_scalar(const YAML::Node& node, int& value);
std::string read_scalar(const YAML::Node& node, std::int64_t& value);
std::string read_scalar(const YAML::Node& node, std::uint64_t& value);
/// A double; .inf, .nan and a number beyond the largest double (1e400) give inf or nan, which
/// the caller refuses; a nonzero number below the smallest (1e-400) is refused, never read as 0.
std::string read_scalar(const YAML::Node& node, double& value);
/// Any scalar's text, as written.
std::string read_scalar(const YAML::Node& node, std::string& value);

}  // namespace fbosim::config
