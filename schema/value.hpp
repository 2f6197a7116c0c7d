#pragma once
// Values as plain data: a preset's value (`{"rff.features", 50}`), and a resolved value as the
// resolved config records it (the text that `fbosim config` prints).
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace fbosim::schema {

/// A value given by code (a preset): a choice by its name, a number, a flag, a text, a list of
/// numbers.
using Value = std::variant<bool, std::int64_t, double, std::string, std::vector<double>>;

/// One resolved value: its kind (for the YAML the record becomes: a number is written bare,
/// a text may be quoted) and its text: integers in decimal, doubles by shortest(), bools as
/// true / false, choices by name, a list of numbers as a YAML flow sequence of shortest() texts
/// ("[0.1, 0.3]"); null for an optional key left empty.
struct Resolved {
  enum class Kind { null, boolean, integer, real, text, real_list };
  Kind kind = Kind::null;
  std::string text;
  bool operator==(const Resolved&) const = default;
};

/// The shortest text that reads back to x (fmt's "{}": 0.03, not 0.029999999999999999).
std::string shortest(double x);
/// `text` cut to at most 60 characters ("..." marks a cut), for messages.
std::string shorten(const std::string& text);
/// A list of numbers as a YAML flow sequence: "[0.1, 0.3]" ("[]" for none).
std::string list_text(const std::vector<double>& values);
/// The value as text, for messages ("50", "0.03", "true", "basic", "[0.1, 0.3]").
std::string to_text(const Value& value);

}  // namespace fbosim::schema
