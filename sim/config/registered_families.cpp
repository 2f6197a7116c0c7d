// TEMPORARY WIRING FOR THE OLD READER: see registered_families.hpp.
#include "sim/config/registered_families.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "datasets/objective_family_entry.hpp"
#include "sim/schema/problem.hpp"
#include "sim/schema/record.hpp"
#include "sim/schema/source.hpp"

namespace fbosim::config {

bool is_legacy_family(const std::string& family) {
  static const std::vector<std::string> legacy = {
      "gp_grid", "heterogeneous", "gp_box", "gp_grid2d", "landmine", "activity", "emnist"};
  return std::find(legacy.begin(), legacy.end(), family) != legacy.end();
}

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

}  // namespace

void add_registered_family_keys(std::vector<KeyDoc>& catalog) {
  for (const datasets::ObjectiveFamilyEntry& e : datasets::objective_registry()) {
    if (is_legacy_family(e.name)) continue;
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
      // A text key without a default (a file, a program, a function) must be given.
      const bool required = d.type == schema::Type::text && value.empty();
      if (!required) k.defaults = {{"", value}};
      k.default_note = required ? "none: required" : d.default_note;
      k.meaning = d.meaning;
      catalog.push_back(std::move(k));
    }
  }
}

void read_registered_family(ConfigReader& r, datasets::ObjectiveSpec& o) {
  const datasets::ObjectiveFamilyEntry& e = datasets::objective_registry().at(o.family);
  schema::Options options = defaults_of(e);
  std::map<std::string, std::optional<schema::Value>> values;
  for (const schema::KeyDoc& d : options.docs()) {
    const std::string& def = d.default_value.text;
    switch (d.type) {
      case schema::Type::integer:
        values[d.path] = r.get<std::int64_t>(d.path, def.empty() ? 0 : std::stoll(def));
        break;
      case schema::Type::real:
        values[d.path] = r.get<double>(d.path, def.empty() ? 0.0 : std::stod(def));
        break;
      case schema::Type::boolean:
        values[d.path] = r.get<bool>(d.path, def == "true");
        break;
      default:
        values[d.path] = r.get<std::string>(d.path, def);
    }
  }
  try {
    schema::Record record;
    options.read(schema::MapSource(std::move(values), r.source()), record);
  } catch (const schema::Error& err) {
    throw ConfigError(err.what());
  }
  o.options = std::move(options);
}

}  // namespace fbosim::config
