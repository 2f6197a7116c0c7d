#include "sim/config/yaml_scalar.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

#include <fmt/format.h>

namespace fbosim::config {

namespace {

constexpr std::string_view kCore = "tag:yaml.org,2002:";

bool all_of(std::string_view s, bool (*ok)(char)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), ok);
}
bool is_dec(char c) { return c >= '0' && c <= '9'; }
bool is_oct(char c) { return c >= '0' && c <= '7'; }
bool is_hex(char c) { return is_dec(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

std::string_view unsigned_part(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  return s;
}

bool core_null(std::string_view s) {
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}
bool core_bool(std::string_view s) {
  return s == "true" || s == "True" || s == "TRUE" || s == "false" || s == "False" || s == "FALSE";
}
// [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+
bool core_int(std::string_view s) {
  if (s.size() > 2 && s[0] == '0' && s[1] == 'o') return all_of(s.substr(2), is_oct);
  if (s.size() > 2 && s[0] == '0' && s[1] == 'x') return all_of(s.substr(2), is_hex);
  return all_of(unsigned_part(s), is_dec);
}
std::size_t count_digits(std::string_view s, std::size_t from) {
  std::size_t n = 0;
  while (from + n < s.size() && is_dec(s[from + n])) ++n;
  return n;
}
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)
bool core_float(std::string_view s) {
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return true;
  s = unsigned_part(s);
  if (s == ".inf" || s == ".Inf" || s == ".INF") return true;
  std::size_t i = count_digits(s, 0);
  const std::size_t whole = i;
  std::size_t fraction = 0;
  if (i < s.size() && s[i] == '.') {
    fraction = count_digits(s, i + 1);
    i += 1 + fraction;
  }
  if (whole == 0 && fraction == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const std::size_t exponent = count_digits(s, i);
    if (exponent == 0) return false;
    i += exponent;
  }
  return i == s.size();
}

// A decimal integer with a leading zero (010, -007): octal in YAML 1.1, decimal in 1.2.
bool ambiguous_octal(std::string_view s) {
  const std::string_view u = unsigned_part(s);
  return u.size() > 1 && u[0] == '0' && all_of(u, is_dec);
}

bool yaml11_bool(std::string_view s) {
  for (const char* w : {"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON",
                        "off", "Off", "OFF"})
    if (s == w) return true;
  return false;
}

bool quoted(const YAML::Node& node) {
  const std::string& tag = node.Tag();
  return tag == "!" || tag == std::string(kCore) + "str";
}

// The part of a message after "expected ...": why the node is not the wanted type, or "".
std::string hint(const YAML::Node& node, YamlType want) {
  const std::string& text = node.Scalar();
  const YamlType plain = plain_type(text);
  if (quoted(node) && (plain == want || (want == YamlType::floating && plain == YamlType::integer)))
    return "; a quoted value is text: write it without quotes";
  if (quoted(node)) return "";
  if (want == YamlType::boolean && yaml11_bool(text))
    return fmt::format("; '{}' is a boolean only in YAML 1.1: write true or false", text);
  if (want != YamlType::boolean && text.find('_') != std::string::npos &&
      std::any_of(text.begin(), text.end(), is_dec))
    return "; YAML 1.2 numbers have no '_' separators";
  return "";
}

// An integer node's sign and magnitude; "" or the reason it is not one.
std::string parse_integer(const YAML::Node& node, const char* expected, bool& negative,
                          std::uint64_t& magnitude) {
  const YamlType type = yaml_type(node);
  const std::string& text = node.Scalar();
  if (type != YamlType::integer) {
    if (type == YamlType::floating && plain_type(text) == YamlType::floating) {
      double v = 0;
      if (read_scalar(node, v).empty() && std::isfinite(v) && v == std::floor(v) &&
          std::fabs(v) < 1e18)
        return fmt::format("{}; {} is a floating-point number in YAML: write {}", expected, text,
                           static_cast<long long>(v));
    }
    return expected + hint(node, YamlType::integer);
  }
  if (ambiguous_octal(text)) {
    const std::size_t first = text.find_first_not_of("+-0");
    const std::string digits = first == std::string::npos ? "0" : text.substr(first);
    return fmt::format(
        "{}; a leading 0 is octal in YAML 1.1 and decimal in YAML 1.2: write {}{} (decimal) or "
        "0o{} (octal)",
        expected, text[0] == '-' ? "-" : "", digits, digits);
  }
  std::string_view digits = text;
  int base = 10;
  negative = false;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'o')) {
    base = digits[1] == 'x' ? 16 : 8;
    digits.remove_prefix(2);
  } else {
    negative = digits[0] == '-';
    digits = unsigned_part(digits);
  }
  const auto [end, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (ec != std::errc() || end != digits.data() + digits.size())
    return fmt::format("{}; out of range", expected);
  return "";
}

template <typename T>
std::string read_signed(const YAML::Node& node, T& value) {
  bool negative = false;
  std::uint64_t magnitude = 0;
  std::string why = parse_integer(node, "expected an integer", negative, magnitude);
  if (!why.empty()) return why;
  const auto max = static_cast<std::uint64_t>(std::numeric_limits<T>::max());
  if (magnitude > max + (negative ? 1 : 0)) return "expected an integer; out of range";
  if (!negative || magnitude == 0) {
    value = static_cast<T>(magnitude);
  } else {  // -(m - 1) - 1 stays in range for m = max + 1
    value = static_cast<T>(-static_cast<T>(magnitude - 1) - 1);
  }
  return "";
}

// The decimal exponent of the first significant digit of a float text matched by core_float
// (1e400: 400, 0.001: -3), saturated: tells overflow from underflow when from_chars cannot.
long long decimal_exponent(std::string_view s) {
  s = unsigned_part(s);
  const std::size_t e = s.find_first_of("eE");
  long long exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view x = s.substr(e + 1);
    const bool minus = !x.empty() && x[0] == '-';
    x = unsigned_part(x);
    for (const char c : x) exponent = std::min(exponent * 10 + (c - '0'), 1'000'000'000LL);
    if (minus) exponent = -exponent;
    s = s.substr(0, e);
  }
  const std::size_t dot = std::min(s.find('.'), s.size());
  const std::size_t first = s.find_first_of("123456789");
  if (first == std::string_view::npos) return 0;
  return exponent + (first < dot ? static_cast<long long>(dot - first) - 1
                                 : -static_cast<long long>(first - dot));
}

}  // namespace

YamlType plain_type(const std::string& text) {
  if (core_null(text)) return YamlType::null;
  if (core_bool(text)) return YamlType::boolean;
  if (core_int(text)) return YamlType::integer;
  if (core_float(text)) return YamlType::floating;
  return YamlType::string;
}

YamlType yaml_type(const YAML::Node& node) {
  if (!node || node.IsNull()) return YamlType::null;
  if (!node.IsScalar()) return YamlType::string;
  const std::string& tag = node.Tag();
  if (tag.empty() || tag == "?") return plain_type(node.Scalar());
  if (tag.rfind(kCore, 0) == 0) {
    const std::string_view name = std::string_view(tag).substr(kCore.size());
    if (name == "int") return YamlType::integer;
    if (name == "float") return YamlType::floating;
    if (name == "bool") return YamlType::boolean;
    if (name == "null") return YamlType::null;
  }
  return YamlType::string;
}

bool known_tag(const std::string& tag) {
  if (tag.empty() || tag == "?" || tag == "!") return true;
  if (tag.rfind(kCore, 0) != 0) return false;
  const std::string_view name = std::string_view(tag).substr(kCore.size());
  for (const char* t : {"str", "int", "float", "bool", "null", "map", "seq"})
    if (name == t) return true;
  return false;
}

std::string yaml_text_of(const YAML::Node& node) {
  if (!node) return "";
  if (node.IsScalar()) {
    const std::string& tag = node.Tag();
    const std::string& text = node.Scalar();
    if (tag.empty() || tag == "?") return text;
    if (tag == "!") {
      YAML::Emitter out;
      out << YAML::DoubleQuoted << text;
      return out.c_str();
    }
    if (tag.rfind(kCore, 0) == 0) return "!!" + tag.substr(kCore.size()) + " " + text;
    return "!<" + tag + "> " + text;
  }
  if (node.IsNull()) return "";
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

std::string read_scalar(const YAML::Node& node, bool& value) {
  if (yaml_type(node) != YamlType::boolean)
    return "expected true or false" + hint(node, YamlType::boolean);
  const std::string& text = node.Scalar();
  value = text == "true" || text == "True" || text == "TRUE";
  return "";
}

std::string read_scalar(const YAML::Node& node, int& value) { return read_signed(node, value); }

std::string read_scalar(const YAML::Node& node, std::int64_t& value) {
  return read_signed(node, value);
}

std::string read_scalar(const YAML::Node& node, std::uint64_t& value) {
  bool negative = false;
  std::uint64_t magnitude = 0;
  std::string why = parse_integer(node, "expected an integer >= 0", negative, magnitude);
  if (!why.empty()) return why;
  if (negative && magnitude != 0) return "expected an integer >= 0";
  value = magnitude;
  return "";
}

std::string read_scalar(const YAML::Node& node, double& value) {
  const YamlType type = yaml_type(node);
  const std::string& text = node.Scalar();
  if (type == YamlType::integer) {
    if (ambiguous_octal(text)) {
      bool negative = false;
      std::uint64_t magnitude = 0;
      return parse_integer(node, "expected a number", negative, magnitude);
    }
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'o')) {
      bool negative = false;
      std::uint64_t magnitude = 0;
      std::string why = parse_integer(node, "expected a number", negative, magnitude);
      if (why.empty()) value = static_cast<double>(magnitude);
      return why;
    }
  } else if (type != YamlType::floating) {
    return "expected a number" + hint(node, YamlType::floating);
  }
  const std::string_view u = unsigned_part(text);
  const bool minus = !text.empty() && text[0] == '-';
  if (u == ".inf" || u == ".Inf" || u == ".INF") {
    value =
        minus ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return "";
  }
  if (u == ".nan" || u == ".NaN" || u == ".NAN") {
    value = std::numeric_limits<double>::quiet_NaN();
    return "";
  }
  double v = 0;
  const auto [end, ec] = std::from_chars(u.data(), u.data() + u.size(), v);
  if (ec == std::errc::result_out_of_range) {
    if (decimal_exponent(u) < 0)
      return fmt::format("expected a number; {} is below the smallest double and would read as 0",
                         text);
    v = std::numeric_limits<double>::infinity();  // refused by the caller as not finite
  } else if (ec != std::errc() || end != u.data() + u.size()) {
    return "expected a number";
  }
  value = minus ? -v : v;
  return "";
}

std::string read_scalar(const YAML::Node& node, std::string& value) {
  if (!node.IsScalar()) return "expected a text value";
  value = node.Scalar();
  return "";
}

}  // namespace fbosim::config
