#pragma once
// The interval a number key accepts, with its text as the key catalog shows it ("[1, 100000]",
// "> 0", "(0, 1]", ">= 0"). An open end excludes its value; a missing end is unbounded.
#include <optional>
#include <string>

namespace fbosim::schema {

struct Range {
  std::optional<double> lo, hi;
  bool lo_open = false, hi_open = false;

  static Range closed(double lo, double hi) { return {lo, hi, false, false}; }     ///< [lo, hi]
  static Range open(double lo, double hi) { return {lo, hi, true, true}; }         ///< (lo, hi)
  static Range left_open(double lo, double hi) { return {lo, hi, true, false}; }   ///< (lo, hi]
  static Range right_open(double lo, double hi) { return {lo, hi, false, true}; }  ///< [lo, hi)
  static Range at_least(double lo) { return {lo, std::nullopt, false, false}; }    ///< >= lo
  static Range above(double lo) { return {lo, std::nullopt, true, false}; }        ///< > lo
  static Range any() { return {}; }                                                ///< unbounded

  /// Whether v lies inside (false for NaN).
  bool contains(double v) const;
  /// "[1, 100000]", "> 0", "(0, 1]", ">= 0", "" when unbounded (numbers as fmt's {:g}).
  std::string text() const;
  /// What a value outside must be: "must be in [1, 100000]", "must be > 0".
  std::string requirement() const;
  bool bounded() const { return lo || hi; }
  bool operator==(const Range&) const = default;
};

}  // namespace fbosim::schema
