#pragma once
// Values as plain data: a preset's value (`{"rff.features", 50}`), and a resolved value as the
// resolved config records it (the text that `fbosim config` prints).
#include <cstdint>
#include <string>
#include <variant>

namespace fbosim::schema {

/// A value given by code (a preset): a choice by its name, a number, a flag, a text.
using Value = std::variant<bool, std::int64_t, double, std::string>;

/// One resolved value: its kind (for the YAML the record becomes: a number is written bare,
/// a text may be quoted) and its text: integers in decimal, doubles by shortest(), bools as
/// true / false, choices by name; null for an optional key left empty.
struct Resolved {
  enum class Kind { null, boolean, integer, real, text };
  Kind kind = Kind::null;
  std::string text;
  bool operator==(const Resolved&) const = default;
};

/// The shortest text that reads back to x (fmt's "{}": 0.03, not 0.029999999999999999).
std::string shortest(double x);
/// `text` cut to at most 60 characters ("..." marks a cut), for messages.
std::string shorten(const std::string& text);
/// The value as text, for messages ("50", "0.03", "true", "basic").
std::string to_text(const Value& value);

}  // namespace fbosim::schema
