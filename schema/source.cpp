#include "schema/source.hpp"

#include <limits>

namespace fbosim::schema {

MapSource::MapSource(std::map<std::string, std::optional<Value>> values, std::string name)
    : values_(std::move(values)), name_(std::move(name)) {}

const Value* MapSource::value(const std::string& path) const {
  const auto it = values_.find(path);
  return it == values_.end() || !it->second ? nullptr : &*it->second;
}

Source::Presence MapSource::presence(const std::string& path) const {
  const auto it = values_.find(path);
  if (it == values_.end()) return Presence::absent;
  return it->second ? Presence::given : Presence::null;
}

std::string MapSource::read(const std::string& path, bool& out) const {
  const Value* v = value(path);
  if (const auto* b = v ? std::get_if<bool>(v) : nullptr) {
    out = *b;
    return "";
  }
  return "expected true or false";
}

std::string MapSource::read(const std::string& path, int& out) const {
  std::int64_t wide = 0;
  const std::string why = read(path, wide);
  if (!why.empty()) return why;
  if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max())
    return "expected an integer; out of range";
  out = static_cast<int>(wide);
  return "";
}

std::string MapSource::read(const std::string& path, std::int64_t& out) const {
  const Value* v = value(path);
  if (const auto* i = v ? std::get_if<std::int64_t>(v) : nullptr) {
    out = *i;
    return "";
  }
  return "expected an integer";
}

std::string MapSource::read(const std::string& path, std::uint64_t& out) const {
  const Value* v = value(path);
  const auto* i = v ? std::get_if<std::int64_t>(v) : nullptr;
  if (!i || *i < 0) return "expected an integer >= 0";
  out = static_cast<std::uint64_t>(*i);
  return "";
}

std::string MapSource::read(const std::string& path, double& out) const {
  const Value* v = value(path);
  if (const auto* d = v ? std::get_if<double>(v) : nullptr) {
    out = *d;
    return "";
  }
  if (const auto* i = v ? std::get_if<std::int64_t>(v) : nullptr) {
    out = static_cast<double>(*i);
    return "";
  }
  return "expected a number";
}

std::string MapSource::read(const std::string& path, std::string& out) const {
  const Value* v = value(path);
  if (!v) return "expected a text value";
  out = to_text(*v);
  return "";
}

std::string MapSource::read(const std::string& path, std::vector<double>& out) const {
  const Value* v = value(path);
  if (const auto* l = v ? std::get_if<std::vector<double>>(v) : nullptr) {
    out = *l;
    return "";
  }
  return "expected a list of numbers, e.g. [0.1, 0.3]";
}

std::string MapSource::where(const std::string& path) const { return name_ + ": " + path; }

std::string MapSource::text(const std::string& path) const {
  const auto it = values_.find(path);
  if (it == values_.end()) return "";
  return it->second ? to_text(*it->second) : "null";
}

}  // namespace fbosim::schema
