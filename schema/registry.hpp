#pragma once
// An open registry: an ordered table of named entries (algorithms, objective families,
// accountants), each added by the code it describes. The order is the order of addition (the
// documentation's and the messages' order), so the registering functions are called from one
// explicit list per registry, never from static initialisers (whose order across files is
// unspecified, and which a static library drops when nothing else refers to their file).
#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fbosim::schema {

/// Entry: any type with a `std::string name`.
template <class Entry>
class Registry {
 public:
  /// Adds an entry; throws std::logic_error for an empty name or a name already there.
  Registry& add(Entry entry) {
    if (entry.name.empty()) throw std::logic_error("schema::Registry: an entry without a name");
    if (find(entry.name))
      throw std::logic_error("schema::Registry: '" + entry.name + "' registered twice");
    entries_.push_back(std::move(entry));
    return *this;
  }
  /// The entry named `name`, or null.
  const Entry* find(std::string_view name) const {
    const auto it = std::find_if(entries_.begin(), entries_.end(),
                                 [&](const Entry& e) { return e.name == name; });
    return it == entries_.end() ? nullptr : &*it;
  }
  /// The entry named `name`; throws std::invalid_argument naming the known ones otherwise.
  const Entry& at(std::string_view name) const {
    if (const Entry* e = find(name)) return *e;
    std::string known;
    for (const Entry& e : entries_) known += (known.empty() ? "" : ", ") + e.name;
    throw std::invalid_argument("unknown name '" + std::string(name) + "' (known: " + known + ")");
  }
  /// The names, in registration order.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Entry& e : entries_) out.push_back(e.name);
    return out;
  }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  std::size_t size() const { return entries_.size(); }

 private:
  std::vector<Entry> entries_;
};

}  // namespace fbosim::schema
