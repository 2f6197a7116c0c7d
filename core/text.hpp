#pragma once
// Small text helpers shared by the config, sweep and table readers.
#include <string>
#include <string_view>

namespace fbosim::core {

/// s without its leading and trailing spaces and tabs ("" when it has nothing else).
inline std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t") - b + 1));
}

}  // namespace fbosim::core
