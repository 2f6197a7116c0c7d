#include "sim/config/key_catalog.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/systems/algorithm_registry.hpp"
#include "datasets/objective_family_entry.hpp"
#include "sim/config/experiment_keys.hpp"
#include "sim/config/time_output_keys.hpp"
#include "sim/timeline/timing_keys.hpp"

namespace fbosim::config {

namespace {

schema::Catalog build_catalog() {
  schema::Catalog c;
  const ExperimentSpec experiment;
  std::vector<schema::KeyDoc> docs;
  for (const auto* g :
       {&experiment_keys(), &accounting_keys(), &network_keys(), &schedule_keys()}) {
    const auto d = g->docs(experiment);
    docs.insert(docs.end(), d.begin(), d.end());
  }
  const auto timing = timeline::timing_keys().docs(experiment.timing);
  docs.insert(docs.end(), timing.begin(), timing.end());
  const auto time_output = time_output_keys().docs(experiment.time_output);
  docs.insert(docs.end(), time_output.begin(), time_output.end());
  c.add(schema::Owner::experiment, "", docs);
  for (const protocol::AlgorithmEntry& a : systems::algorithm_registry()) {
    schema::Options o = a.options;
    o.apply(a.presets);
    c.add(schema::Owner::algorithm, a.name, o.docs());
    // An algorithm's own default of an experiment key (dp_bo's accountant, ...).
    for (const schema::Preset& p : a.experiment_presets) {
      ExperimentSpec e;
      accounting_keys().set(e, p.path, p.value);
      for (const schema::KeyDoc& d : accounting_keys().docs(e))
        if (d.path == p.path) c.add_default(p.path, a.name, d.default_value);
    }
  }
  for (const datasets::ObjectiveFamilyEntry& f : datasets::objective_registry()) {
    schema::Options o = f.options;
    o.apply(f.presets);
    c.add(schema::Owner::family, f.name, o.docs());
  }
  return c;
}

// A default as the tables show it; "(none)" for an empty one (an optional key, no extra
// accountants).
std::string value_text(const schema::Resolved& v) {
  return v.kind == schema::Resolved::Kind::null || v.text.empty() ? "(none)" : v.text;
}

// The documentation's sections, by the key's first component.
const std::vector<std::pair<std::string, std::string>>& sections() {
  static const std::vector<std::pair<std::string, std::string>> s = {
      {"", "The experiment"},
      {"objective", "Objectives and data"},
      {"agents", "Agents"},
      {"exploration", "Distributed exploration (DP-FTS-DE family)"},
      {"rff", "Shared random features of the messages"},
      {"local_ts", "The agents' own Thompson-sampling step"},
      {"gp", "GP hyperparameters"},
      {"acquisition", "Acquisition maximiser on continuous domains"},
      {"server", "Server and privacy accounting"},
      {"personal", "Personal privacy: per-agent rates and budgets (docs/TRUST.md)"},
      {"network", "Simulated network"},
      {"schedule", "Schedules: when the server releases (docs/TIME.md)"},
      {"timing", "Simulated time of the asynchronous schedules (docs/TIME.md)"},
      {"output", "Outputs on simulated time (docs/TIME.md)"},
      {"target", "FTS's target agent (fts_target, rgpe, taf)"},
      {"sources", "FTS's source agents (fts_target, rgpe, taf)"},
      {"ensemble", "RGPE and TAF"},
      {"po", "PO-GP-UCB (po_gp_ucb and its baseline gp_ucb)"},
      {"curator", "PO-GP-UCB's curator (Algorithm 1)"},
      {"ucb", "GP-UCB's confidence parameter (po_gp_ucb, gp_ucb)"},
      {"candidates", "Candidate hyperparameters (dp_bo)"},
      {"release", "The private release of BO results (dp_bo)"},
  };
  return s;
}

std::string section_of(const std::string& key) {
  if (key == "datasets.root") return "objective";
  const auto dot = key.find('.');
  const std::string first = dot == std::string::npos ? "" : key.substr(0, dot);
  for (const auto& [id, title] : sections())
    if (id == first) return id;
  return "?";  // a section nobody titled yet: listed last, under "Other keys"
}

// A Markdown table cell: a '|' would end it.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// The meaning, and when the key applies where it does not always (Group::applies_when).
std::string meaning_text(const schema::KeyDoc& doc) {
  if (doc.applies_when.empty()) return doc.meaning;
  return doc.meaning + " (only with `" + doc.applies_when +
         "`: otherwise a value other than the one in force is refused)";
}

std::string row(const schema::CatalogKey& k) {
  return fmt::format("| `{}` | {} | {} | {} | {} |\n", k.doc.path, cell(default_text(k)),
                     cell(range_text(k.doc)), used_by(k), cell(meaning_text(k.doc)));
}

}  // namespace

const schema::Catalog& key_catalog() {
  static const schema::Catalog catalog = build_catalog();
  return catalog;
}

std::string default_text(const schema::CatalogKey& key) {
  if (!key.doc.default_note.empty()) return key.doc.default_note;
  // Each value with the owners that have it, in the order first seen.
  std::vector<std::pair<std::string, std::vector<std::string>>> values;
  for (const schema::CatalogKey::Default& d : key.defaults) {
    const std::string v = value_text(d.value);
    auto it =
        std::find_if(values.begin(), values.end(), [&](const auto& p) { return p.first == v; });
    if (it == values.end()) it = values.insert(values.end(), {v, {}});
    it->second.push_back(d.name);
  }
  if (values.empty()) return "";
  // The experiment's value, else the most common, is the default; the others are named.
  std::size_t main = 0;
  if (key.owner != schema::Owner::experiment)
    for (std::size_t i = 1; i < values.size(); ++i)
      if (values[i].second.size() > values[main].second.size()) main = i;
  std::string out = values[main].first;
  const std::string label = key.owner == schema::Owner::family ? "objective.family " : "";
  for (std::size_t i = 0; i < values.size(); ++i)
    if (i != main)
      out += fmt::format("; {}{}: {}", label, fmt::join(values[i].second, ", "), values[i].first);
  return out;
}

std::string range_text(const schema::KeyDoc& doc) {
  if (!doc.choices.empty()) return fmt::format("{}", fmt::join(doc.choices, " | "));
  if (doc.type == schema::Type::real_list)
    return doc.range && doc.range->bounded() ? "list, each " + doc.range->text() : "list";
  if (doc.range && doc.range->bounded()) return doc.range->text();
  if (doc.type == schema::Type::boolean) return "true | false";
  return "";
}

std::string used_by(const schema::CatalogKey& key) {
  if (key.owner == schema::Owner::experiment) return "all";
  const std::vector<std::string> all = key.owner == schema::Owner::algorithm
                                           ? systems::algorithm_registry().names()
                                           : datasets::objective_registry().names();
  if (key.owners.size() == all.size()) return "all";
  return fmt::format("{} {}", key.owner == schema::Owner::algorithm ? "algorithms" : "families",
                     fmt::join(key.owners, ", "));
}

std::string keys_text(const std::string& prefix) {
  std::string out;
  for (const schema::CatalogKey& k : key_catalog().keys()) {
    if (k.doc.path.rfind(prefix, 0) != 0) continue;
    const std::string range = range_text(k.doc);
    out += fmt::format("{}\n  default {}{}; used by {}\n  {}\n", k.doc.path, default_text(k),
                       range.empty() ? "" : "; range " + range, used_by(k), meaning_text(k.doc));
  }
  return out;
}

std::string keys_markdown() {
  std::map<std::string, std::string> rows;  // section id -> its rows, in the catalog's order
  for (const schema::CatalogKey& k : key_catalog().keys()) rows[section_of(k.doc.path)] += row(k);
  std::string out;
  const auto table = [&](const std::string& title, const std::string& body) {
    out += fmt::format(
        "### {}\n\n| key | default | range | used by | meaning |\n|---|---|---|---|---|\n{}\n",
        title, body);
  };
  for (const auto& [id, title] : sections()) table(title, rows[id]);
  if (rows.count("?")) table("Other keys", rows["?"]);
  return out;
}

}  // namespace fbosim::config
