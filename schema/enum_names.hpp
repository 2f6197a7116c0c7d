#pragma once
// One name table per configured enum (or any small set of values: a bool spelled as two words,
// a preset of numbers): the config's names of the values, in documentation order. It gives
// parse and to_string, so an enum's names are written once, beside the enum.
//   inline constexpr schema::EnumNames<Redraw> kRedrawNames{{Redraw::step, "step"},
//                                                           {Redraw::refit, "refit"}};
#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fbosim::schema {

template <class E>
class EnumNames {
 public:
  struct Entry {
    E value{};
    std::string_view name;
  };
  /// The most names a table holds (a config choice lists a few).
  static constexpr std::size_t kCapacity = 16;

  /// Throws std::logic_error (a compile-time error in a constexpr table) for more than
  /// kCapacity entries, an empty name, or a name or value given twice.
  constexpr EnumNames(std::initializer_list<Entry> entries) {
    if (entries.size() > kCapacity) throw std::logic_error("EnumNames: too many names");
    for (const Entry& e : entries) {
      if (e.name.empty()) throw std::logic_error("EnumNames: an empty name");
      for (std::size_t i = 0; i < size_; ++i)
        if (entries_[i].name == e.name || entries_[i].value == e.value)
          throw std::logic_error("EnumNames: a name or value given twice");
      entries_[size_++] = e;
    }
  }

  constexpr std::size_t size() const { return size_; }
  constexpr const Entry* begin() const { return entries_.data(); }
  constexpr const Entry* end() const { return entries_.data() + size_; }

  /// The value's name; throws std::logic_error for a value the table does not name.
  std::string name(const E& value) const {
    for (const Entry& e : *this)
      if (e.value == value) return std::string(e.name);
    throw std::logic_error("EnumNames: a value without a name");
  }
  bool names_value(const E& value) const {
    return std::any_of(begin(), end(), [&](const Entry& e) { return e.value == value; });
  }
  /// The value named `name`, if any.
  std::optional<E> find(std::string_view name) const {
    for (const Entry& e : *this)
      if (e.name == name) return e.value;
    return std::nullopt;
  }
  /// The value named `name`; throws std::invalid_argument "<what> must be one of a, b; got
  /// 'x'" ("must be one of ..." without `what`).
  E parse(std::string_view name, std::string_view what = "") const {
    if (const auto v = find(name)) return *v;
    std::string list;
    for (const Entry& e : *this) list += (list.empty() ? "" : ", ") + std::string(e.name);
    throw std::invalid_argument(std::string(what) + (what.empty() ? "" : " ") + "must be one of " +
                                list + "; got '" + std::string(name) + "'");
  }
  /// The names, in table order.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Entry& e : *this) out.emplace_back(e.name);
    return out;
  }
  /// The entries of `values` only, in this table's order (a key that offers some of them);
  /// throws std::logic_error for a value the table does not name.
  EnumNames subset(std::initializer_list<E> values) const {
    EnumNames out{};
    for (const E& v : values)
      if (!names_value(v)) throw std::logic_error("EnumNames::subset: a value without a name");
    for (const Entry& e : *this)
      if (std::find(values.begin(), values.end(), e.value) != values.end())
        out.entries_[out.size_++] = e;
    return out;
  }

 private:
  constexpr EnumNames() = default;
  std::array<Entry, kCapacity> entries_{};
  std::size_t size_ = 0;
};

}  // namespace fbosim::schema
