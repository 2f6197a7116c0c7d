#include "schema/record.hpp"

namespace fbosim::schema {

void Record::set(const std::string& path, Resolved value) {
  const auto [it, inserted] = index_.emplace(path, entries_.size());
  if (inserted) {
    entries_.emplace_back(path, std::move(value));
  } else {
    entries_[it->second].second = std::move(value);
  }
}

const Resolved* Record::find(const std::string& path) const {
  const auto it = index_.find(path);
  return it == index_.end() ? nullptr : &entries_[it->second].second;
}

}  // namespace fbosim::schema
