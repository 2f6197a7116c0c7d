#include "schema/key_reading.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schema/problem.hpp"
#include "schema/suggest.hpp"

namespace fbosim::schema {

std::string to_string(Type type) {
  switch (type) {
    case Type::integer:
      return "integer";
    case Type::real:
      return "real";
    case Type::boolean:
      return "boolean";
    case Type::text:
      return "text";
    case Type::choice:
      return "choice";
    case Type::text_list:
      return "text list";
    case Type::real_list:
      return "real list";
  }
  return "?";
}

namespace detail {

namespace {

[[noreturn]] void wrong_type(const Source& source, const KeyDoc& doc, const std::string& why) {
  throw Error(doc.path, source.where(doc.path) + ": has the wrong type (" + why + "), got '" +
                            shorten(source.text(doc.path)) + "'");
}

void check_range(const Source& source, const KeyDoc& doc, double v) {
  if (doc.range && !doc.range->contains(v))
    throw Error(doc.path, message_of(source, {doc.path, doc.range->requirement()}));
}

[[noreturn]] void bad_preset(const KeyDoc& doc, const Value& value, const std::string& why) {
  throw std::logic_error(fmt::format("preset {} = {}: {}", doc.path, shorten(to_text(value)), why));
}

template <class T>
T integer_from_value(const KeyDoc& doc, const Value& value) {
  const auto* i = std::get_if<std::int64_t>(&value);
  if (!i) bad_preset(doc, value, "expected an integer");
  if constexpr (std::is_unsigned_v<T>) {
    if (*i < 0) bad_preset(doc, value, "expected an integer >= 0");
  } else {
    if (*i < std::numeric_limits<T>::min() || *i > std::numeric_limits<T>::max())
      bad_preset(doc, value, "out of the type's range");
  }
  return static_cast<T>(*i);
}

}  // namespace

bool given(const Source& source, const KeyDoc& doc) {
  switch (source.presence(doc.path)) {
    case Source::Presence::absent:
      return false;
    case Source::Presence::null:
      if (doc.optional) return false;
      throw Error(doc.path, source.where(doc.path) +
                                ": has no value (give one, or leave the key out for the default)");
    case Source::Presence::given:
      return true;
  }
  return false;
}

// A list's items: at least one, each finite and in range (numbered from 1 in messages).
void check_items(const Source& source, const KeyDoc& doc, const std::vector<double>& items) {
  const auto bad = [&](const std::string& what) {
    throw Error(doc.path, source.where(doc.path) + ": " + what + ", got '" +
                              shorten(source.text(doc.path)) + "'");
  };
  if (items.empty()) bad("must list at least one number");
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!std::isfinite(items[i])) bad(fmt::format("item {} must be a finite number", i + 1));
    if (doc.range && !doc.range->contains(items[i]))
      bad(fmt::format("item {} {}", i + 1, doc.range->requirement()));
  }
}

template <class T>
T read_given(const Source& source, const KeyDoc& doc) {
  T value{};
  const std::string why = source.read(doc.path, value);
  if (!why.empty()) wrong_type(source, doc, why);
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(value))
      throw Error(doc.path, source.where(doc.path) + ": must be a finite number, got '" +
                                shorten(source.text(doc.path)) + "'");
  }
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
    check_range(source, doc, static_cast<double>(value));
  if constexpr (std::is_same_v<T, std::vector<double>>) check_items(source, doc, value);
  return value;
}

template bool read_given<bool>(const Source&, const KeyDoc&);
template int read_given<int>(const Source&, const KeyDoc&);
template std::int64_t read_given<std::int64_t>(const Source&, const KeyDoc&);
template std::uint64_t read_given<std::uint64_t>(const Source&, const KeyDoc&);
template double read_given<double>(const Source&, const KeyDoc&);
template std::string read_given<std::string>(const Source&, const KeyDoc&);
template std::vector<double> read_given<std::vector<double>>(const Source&, const KeyDoc&);

std::size_t read_choice(const Source& source, const KeyDoc& doc) {
  const std::string value = read_given<std::string>(source, doc);
  const auto it = std::find(doc.choices.begin(), doc.choices.end(), value);
  if (it != doc.choices.end()) return static_cast<std::size_t>(it - doc.choices.begin());
  throw Error(doc.path, fmt::format("{}: must be one of {}, got '{}'{}", source.where(doc.path),
                                    fmt::join(doc.choices, ", "), shorten(value),
                                    did_you_mean(value, doc.choices)));
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto b = item.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    item = item.substr(b, item.find_last_not_of(" \t") - b + 1);
    if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
  }
  return out;
}

std::vector<std::string> read_list(const Source& source, const KeyDoc& doc, const std::string& item,
                                   std::string& raw) {
  raw = read_given<std::string>(source, doc);
  std::vector<std::string> items = split_list(raw);
  for (const std::string& i : items)
    if (std::find(doc.choices.begin(), doc.choices.end(), i) == doc.choices.end())
      throw Error(
          doc.path,
          message_of(source, {doc.path, fmt::format("unknown {} '{}' (choose from {})", item, i,
                                                    fmt::join(doc.choices, ", "))}));
  return items;
}

template <class T>
T from_value(const KeyDoc& doc, const Value& value) {
  T out{};
  if constexpr (std::is_same_v<T, bool>) {
    const auto* b = std::get_if<bool>(&value);
    if (!b) bad_preset(doc, value, "expected true or false");
    out = *b;
  } else if constexpr (std::is_same_v<T, std::string>) {
    const auto* s = std::get_if<std::string>(&value);
    if (!s) bad_preset(doc, value, "expected a text");
    out = *s;
  } else if constexpr (std::is_same_v<T, std::vector<double>>) {
    const auto* l = std::get_if<std::vector<double>>(&value);
    if (!l || l->empty()) bad_preset(doc, value, "expected a list of at least one number");
    for (const double x : *l) {
      if (!std::isfinite(x)) bad_preset(doc, value, "every item must be a finite number");
      if (doc.range && !doc.range->contains(x))
        bad_preset(doc, value, "every item " + doc.range->requirement());
    }
    out = *l;
  } else if constexpr (std::is_floating_point_v<T>) {
    if (const auto* d = std::get_if<double>(&value)) {
      out = *d;
    } else if (const auto* i = std::get_if<std::int64_t>(&value)) {
      out = static_cast<double>(*i);
    } else {
      bad_preset(doc, value, "expected a number");
    }
    if (!std::isfinite(out)) bad_preset(doc, value, "must be a finite number");
  } else {
    out = integer_from_value<T>(doc, value);
  }
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
    if (doc.range && !doc.range->contains(static_cast<double>(out)))
      bad_preset(doc, value, doc.range->requirement());
  return out;
}

template bool from_value<bool>(const KeyDoc&, const Value&);
template int from_value<int>(const KeyDoc&, const Value&);
template std::int64_t from_value<std::int64_t>(const KeyDoc&, const Value&);
template std::uint64_t from_value<std::uint64_t>(const KeyDoc&, const Value&);
template double from_value<double>(const KeyDoc&, const Value&);
template std::string from_value<std::string>(const KeyDoc&, const Value&);
template std::vector<double> from_value<std::vector<double>>(const KeyDoc&, const Value&);

std::size_t choice_from_value(const KeyDoc& doc, const Value& value) {
  const std::string name = from_value<std::string>(doc, value);
  const auto it = std::find(doc.choices.begin(), doc.choices.end(), name);
  if (it == doc.choices.end())
    bad_preset(doc, value, fmt::format("not one of {}", fmt::join(doc.choices, ", ")));
  return static_cast<std::size_t>(it - doc.choices.begin());
}

Resolved resolved(bool v) { return {Resolved::Kind::boolean, v ? "true" : "false"}; }
Resolved resolved(int v) { return {Resolved::Kind::integer, std::to_string(v)}; }
Resolved resolved(std::int64_t v) { return {Resolved::Kind::integer, std::to_string(v)}; }
Resolved resolved(std::uint64_t v) { return {Resolved::Kind::integer, std::to_string(v)}; }
Resolved resolved(double v) { return {Resolved::Kind::real, shortest(v)}; }
Resolved resolved(const std::string& v) { return {Resolved::Kind::text, v}; }
Resolved resolved(const std::vector<double>& v) {
  return v.empty() ? resolved_null() : Resolved{Resolved::Kind::real_list, list_text(v)};
}
Resolved resolved_text(const std::string& v) { return {Resolved::Kind::text, v}; }
Resolved resolved_null() { return {Resolved::Kind::null, ""}; }

}  // namespace detail

}  // namespace fbosim::schema
