#include "schema/range.hpp"

#include <fmt/format.h>

namespace fbosim::schema {

namespace {
std::string number(double v) { return fmt::format("{:g}", v); }
}  // namespace

bool Range::contains(double v) const {
  if (lo && (lo_open ? !(v > *lo) : !(v >= *lo))) return false;
  if (hi && (hi_open ? !(v < *hi) : !(v <= *hi))) return false;
  return v == v;  // NaN is in no range, not even an unbounded one
}

std::string Range::text() const {
  if (lo && hi)
    return fmt::format("{}{}, {}{}", lo_open ? "(" : "[", number(*lo), number(*hi),
                       hi_open ? ")" : "]");
  if (lo) return fmt::format("{} {}", lo_open ? ">" : ">=", number(*lo));
  if (hi) return fmt::format("{} {}", hi_open ? "<" : "<=", number(*hi));
  return "";
}

std::string Range::requirement() const {
  return std::string("must be ") + (lo && hi ? "in " : "") + text();
}

}  // namespace fbosim::schema
