#include "schema/value.hpp"

#include <fmt/format.h>

namespace fbosim::schema {

std::string shortest(double x) { return fmt::format("{}", x); }

std::string shorten(const std::string& text) {
  return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}

std::string list_text(const std::vector<double>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + shortest(values[i]);
  return out + "]";
}

std::string to_text(const Value& value) {
  if (const auto* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value)) return shortest(*d);
  if (const auto* l = std::get_if<std::vector<double>>(&value)) return list_text(*l);
  return std::get<std::string>(value);
}

}  // namespace fbosim::schema
