#include "sim/config/key_catalog.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/systems/algorithm_registry.hpp"
#include "datasets/objective_family_entry.hpp"

namespace fbosim::config {

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string w; std::getline(in, w, sep);)
    if (!w.empty()) out.push_back(w);
  return out;
}

bool listed(const std::string& list, const std::string& name) {
  if (list.empty()) return true;
  const auto items = split(list, ',');
  return std::find(items.begin(), items.end(), name) != items.end();
}

std::string number(double v) { return fmt::format("{:g}", v); }

std::string used_by(const KeyDoc& k) {
  std::string out;
  if (!k.algorithms.empty())
    out += fmt::format("algorithms {}", fmt::join(split(k.algorithms, ','), ", "));
  if (!k.families.empty())
    out += fmt::format("{}families {}", out.empty() ? "" : "; ",
                       fmt::join(split(k.families, ','), ", "));
  return out.empty() ? "all" : out;
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
      {"network", "Simulated network"},
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

// A Markdown table cell: a '|' would end it.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string section_of(const std::string& key) {
  if (key == "datasets.root") return "objective";
  const auto dot = key.find('.');
  return dot == std::string::npos ? "" : key.substr(0, dot);
}

}  // namespace

bool KeyDoc::Bounds::contains(double v) const {
  if (lo && (lo_open ? !(v > *lo) : !(v >= *lo))) return false;
  if (hi && (hi_open ? !(v < *hi) : !(v <= *hi))) return false;
  return true;
}

std::string KeyDoc::Bounds::text() const {
  if (lo && hi)
    return fmt::format("{}{}, {}{}", lo_open ? "(" : "[", number(*lo), number(*hi),
                       hi_open ? ")" : "]");
  if (lo) return fmt::format("{} {}", lo_open ? ">" : ">=", number(*lo));
  if (hi) return fmt::format("{} {}", hi_open ? "<" : "<=", number(*hi));
  return "";
}

std::vector<std::string> KeyDoc::choice_list() const {
  if (choices == "@algorithms") return systems::algorithm_registry().names();
  if (choices == "@accountants") return privacy::accountant_names();
  if (choices == "@families") return datasets::objective_registry().names();
  return split(choices, ' ');
}

std::optional<std::string> KeyDoc::default_for(const std::string& algorithm,
                                               const std::string& family) const {
  // A family's own default first (gp_grid2d's length scale is PO-GP-UCB's, not DP-FTS-DE's).
  for (const bool own : {true, false})
    for (const Default& d : defaults)
      if (listed(d.algorithms, algorithm) &&
          (own ? !d.families.empty() && listed(d.families, family) : d.families.empty()))
        return d.value;
  return std::nullopt;
}

std::string KeyDoc::default_text() const {
  if (!default_note.empty()) return default_note;
  std::string out;
  for (const Default& d : defaults) {
    if (!out.empty()) out += "; ";
    if (!d.algorithms.empty())
      out += fmt::format("{}: ", fmt::join(split(d.algorithms, ','), ", "));
    if (!d.families.empty())
      out += fmt::format("objective.family {}: ", fmt::join(split(d.families, ','), ", "));
    out += d.value.empty() ? "(none)" : d.value;
  }
  return out;
}

std::string KeyDoc::range_text() const {
  if (!choices.empty()) return fmt::format("{}", fmt::join(choice_list(), " | "));
  if (bounds) return bounds->text();
  if (!defaults.empty() && (defaults[0].value == "true" || defaults[0].value == "false"))
    return "true | false";
  return "";
}

bool KeyDoc::read_by(const std::string& algorithm) const { return listed(algorithms, algorithm); }

bool KeyDoc::applies_to_family(const std::string& family) const { return listed(families, family); }

const KeyDoc* find_key(const std::string& key) {
  for (const KeyDoc& k : key_catalog())
    if (k.key == key) return &k;
  return nullptr;
}

std::string keys_text(const std::string& prefix) {
  std::string out;
  for (const KeyDoc& k : key_catalog()) {
    if (k.key.rfind(prefix, 0) != 0) continue;
    out += fmt::format("{}\n  default {}{}; used by {}\n  {}\n", k.key, k.default_text(),
                       k.range_text().empty() ? "" : "; range " + k.range_text(), used_by(k),
                       k.meaning);
  }
  return out;
}

std::string keys_markdown() {
  std::string out;
  for (const auto& [id, title] : sections()) {
    out += fmt::format(
        "### {}\n\n| key | default | range | used by | meaning |\n|---|---|---|---|---|\n", title);
    for (const KeyDoc& k : key_catalog())
      if (section_of(k.key) == id)
        out += fmt::format("| `{}` | {} | {} | {} | {} |\n", k.key, cell(k.default_text()),
                           cell(k.range_text()), used_by(k), cell(k.meaning));
    out += "\n";
  }
  return out;
}

}  // namespace fbosim::config
