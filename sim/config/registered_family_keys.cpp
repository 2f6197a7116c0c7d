#include "sim/config/registered_family_keys.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "datasets/objective_family_entry.hpp"
#include "sim/schema/problem.hpp"

namespace fbosim::config {

namespace {

schema::Options defaults_of(const datasets::ObjectiveFamilyEntry& e) {
  schema::Options o = e.options;
  o.apply(e.presets);
  return o;
}

std::string choices_text(const std::vector<std::string>& choices) {
  std::string out;
  for (const std::string& c : choices) out += (out.empty() ? "" : " ") + c;
  return out;
}

// Whether a hand-written row names the family (the families listed before the registry).
bool listed(const std::vector<KeyDoc>& catalog, const std::string& family) {
  return std::any_of(catalog.begin(), catalog.end(), [&](const KeyDoc& k) {
    const std::string list = "," + k.families + ",";
    return list.find("," + family + ",") != std::string::npos;
  });
}

}  // namespace

void add_registered_family_keys(std::vector<KeyDoc>& catalog) {
  const std::size_t hand_written = catalog.size();
  for (const datasets::ObjectiveFamilyEntry& e : datasets::objective_registry()) {
    if (listed({catalog.begin(), catalog.begin() + static_cast<std::ptrdiff_t>(hand_written)},
               e.name))
      continue;
    for (const schema::KeyDoc& d : defaults_of(e).docs()) {
      const std::string value = d.default_value.text;
      const auto it = std::find_if(catalog.begin(), catalog.end(),
                                   [&](const KeyDoc& k) { return k.key == d.path; });
      if (it != catalog.end()) {
        if (!it->families.empty()) it->families += "," + e.name;
        const bool same = it->default_for("", e.name) == std::optional<std::string>(value);
        if (!same) it->defaults.push_back({"", value, e.name});
        continue;
      }
      KeyDoc k;
      k.key = d.path;
      k.families = e.name;
      if (d.range && d.range->bounded())
        k.bounds = KeyDoc::Bounds{d.range->lo, d.range->hi, d.range->lo_open, d.range->hi_open};
      k.choices = choices_text(d.choices);
      // A text key without a default (a file, a program, a function) must be given: its
      // declaration's note says so ("none: required").
      if (!(d.type == schema::Type::text && value.empty())) k.defaults = {{"", value}};
      k.default_note = d.default_note;
      k.meaning = d.meaning;
      catalog.push_back(std::move(k));
    }
  }
}

}  // namespace fbosim::config
