#pragma once
// The checks every key gets, in one place (used by Group): a value given without one, the
// type, finiteness, the range, the choices; and a preset's value checked the same way. Each
// read throws Error with the message the config reader has always given:
//   <where>: has no value (give one, or leave the key out for the default)
//   <where>: has the wrong type (expected an integer; ...), got '<value>'
//   <where>: must be a finite number, got '<value>'
//   <where>: must be in [1, 100000], got <value>
//   <where>: must be one of a, b, got '<value>' (did you mean 'a'?)
//   <where>: item 2 must be > 0, got '[0.1, -1]'       (a real list: items numbered from 1)
#include <cstdint>
#include <string>
#include <vector>

#include "schema/key.hpp"
#include "schema/source.hpp"

namespace fbosim::schema::detail {

/// Whether the key is given; a key given without a value is an Error unless the key is
/// optional (then it is not given).
bool given(const Source& source, const KeyDoc& doc);
/// The given value, checked (type; numbers: finite and in doc.range; a list of numbers: at
/// least one item, each finite and in doc.range).
template <class T>
T read_given(const Source& source, const KeyDoc& doc);
/// The index in doc.choices of the given choice.
std::size_t read_choice(const Source& source, const KeyDoc& doc);
/// The given comma-separated list (items trimmed, empty ones dropped, a repeat kept once),
/// each item one of doc.choices (else "unknown <item> 'x' (choose from a, b)"); raw: the text.
std::vector<std::string> read_list(const Source& source, const KeyDoc& doc, const std::string& item,
                                   std::string& raw);

/// A preset's value as the key's type, checked like a read; throws std::logic_error (a preset
/// is code: a wrong one is a programming error).
template <class T>
T from_value(const KeyDoc& doc, const Value& value);
/// The index in doc.choices of a preset's name.
std::size_t choice_from_value(const KeyDoc& doc, const Value& value);

Resolved resolved(bool v);
Resolved resolved(int v);
Resolved resolved(std::int64_t v);
Resolved resolved(std::uint64_t v);
Resolved resolved(double v);
Resolved resolved(const std::string& v);
Resolved resolved(const std::vector<double>& v);  ///< real_list; null when empty
Resolved resolved_text(const std::string& v);
Resolved resolved_null();

/// "a,b" -> {"a", "b"}: items trimmed of blanks, empty ones dropped, a repeat kept once.
std::vector<std::string> split_list(const std::string& text);

}  // namespace fbosim::schema::detail
