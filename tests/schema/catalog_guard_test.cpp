// The guard of issue 25's switch-over: every key declared beside its option struct (path, type,
// default per algorithm and family, range, choices, meaning, default note, which algorithms
// and families read it) against the hand-written key catalog that `fbosim keys` and
// docs/CONFIG.md showed before they became a view of the declarations (data/hand_catalog.json:
// every entry of sim/config/key_catalog_entries.cpp at 7c817f2, with its default for every
// algorithm and family that read it, dumped from that build), key by key. Any difference
// fails, except the ones listed below, each a fault of the old catalog (or of its reader) that
// the declarations correct; a listed difference that disappears fails too, so the list stays
// exact. Keys declared after the hand-written catalog went are listed in data/added_keys.txt.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "added_keys.hpp"
#include "algorithms/systems/algorithm_registry.hpp"
#include "datasets/objective_family_entry.hpp"
#include "sim/config/key_catalog.hpp"

using namespace fbosim;

namespace {

// One entry of the hand-written catalog, as data/hand_catalog.json keeps it.
struct OldKey {
  std::string key, range, meaning, default_note;
  std::optional<schema::Range> bounds;
  std::vector<std::string> choices, algorithms, families;
  bool literal_defaults = false;
  std::map<std::string, std::optional<std::string>> defaults;  // "algorithm/family" -> value

  bool read_by(const std::string& a) const {
    return std::find(algorithms.begin(), algorithms.end(), a) != algorithms.end();
  }
  bool applies_to_family(const std::string& f) const {
    return std::find(families.begin(), families.end(), f) != families.end();
  }
  std::optional<std::string> default_for(const std::string& a, const std::string& f) const {
    const auto it = defaults.find(a + "/" + f);
    return it == defaults.end() ? std::nullopt : it->second;
  }
};

std::vector<OldKey> hand_catalog() {
  std::ifstream in(std::string(FBOSIM_SOURCE_DIR) + "/tests/schema/data/hand_catalog.json");
  REQUIRE(in);
  const nlohmann::json all = nlohmann::json::parse(in);
  std::vector<OldKey> out;
  for (const nlohmann::json& j : all) {
    OldKey k;
    k.key = j.at("key");
    k.range = j.at("range");
    k.meaning = j.at("meaning");
    k.default_note = j.at("default_note");
    if (const auto& b = j.at("bounds"); !b.is_null()) {
      schema::Range r;
      if (!b.at("lo").is_null()) r.lo = b.at("lo").get<double>();
      if (!b.at("hi").is_null()) r.hi = b.at("hi").get<double>();
      r.lo_open = b.at("lo_open");
      r.hi_open = b.at("hi_open");
      k.bounds = r;
    }
    k.choices = j.at("choices").get<std::vector<std::string>>();
    k.algorithms = j.at("read_by").get<std::vector<std::string>>();
    k.families = j.at("families").get<std::vector<std::string>>();
    k.literal_defaults = j.at("literal_defaults");
    // Each value with the (algorithm, family) pairs that have it; "*": every pair read.
    for (const nlohmann::json& d : j.at("defaults")) {
      const std::optional<std::string> v =
          d[0].is_null() ? std::nullopt : std::optional<std::string>(d[0].get<std::string>());
      if (d[1].is_string()) {
        for (const std::string& a : k.algorithms)
          for (const std::string& f : k.families) k.defaults[a + "/" + f] = v;
      } else {
        for (const std::string& pair : d[1].get<std::vector<std::string>>()) k.defaults[pair] = v;
      }
    }
    out.push_back(std::move(k));
  }
  return out;
}

std::string join(const std::vector<std::string>& v) {
  return fmt::format("{}", fmt::join(v, ", "));
}

// Whether `now` holds every name of `before` in the same order (and maybe more).
bool grows(const std::vector<std::string>& before, const std::vector<std::string>& now) {
  std::size_t i = 0;
  for (const std::string& n : now)
    if (i < before.size() && n == before[i]) ++i;
  return i == before.size();
}

// Every difference between the old catalog's entry and the declarations, one line each.
std::vector<std::string> differences(const OldKey& old, const schema::CatalogKey& now,
                                     const std::vector<std::string>& algorithms,
                                     const std::vector<std::string>& families) {
  std::vector<std::string> out;
  const std::string& k = old.key;
  const schema::KeyDoc& d = now.doc;
  // A registry's names (algorithm, objective.family, the accountants) may grow: every old name
  // still there, in the same order.
  const bool registry = k == "algorithm" || k == "objective.family" || k == "server.accountant";
  if (registry && grows(old.choices, d.choices)) {
    // its choices and range text are the registry's: compared by grows()
  } else if (old.range != config::range_text(d)) {
    out.push_back(
        fmt::format("{}: range: catalog '{}', schema '{}'", k, old.range, config::range_text(d)));
  }
  const bool old_bounds = old.bounds.has_value(), new_bounds = d.range && d.range->bounded();
  if (old_bounds != new_bounds ||
      (old_bounds &&
       (old.bounds->lo != d.range->lo || old.bounds->hi != d.range->hi ||
        old.bounds->lo_open != d.range->lo_open || old.bounds->hi_open != d.range->hi_open)))
    out.push_back(fmt::format("{}: bounds differ", k));
  if (old.choices != d.choices && !(old.choices.empty() && d.type == schema::Type::text_list) &&
      !(registry && grows(old.choices, d.choices)))
    out.push_back(fmt::format("{}: choices: catalog '{}', schema '{}'", k, join(old.choices),
                              join(d.choices)));
  if (old.meaning != d.meaning) out.push_back(fmt::format("{}: meaning", k));
  if (old.default_note != d.default_note)
    out.push_back(fmt::format("{}: default note: catalog '{}', schema '{}'", k, old.default_note,
                              d.default_note));
  std::vector<std::string> old_only, new_only;
  for (const std::string& a : algorithms) {
    if (old.read_by(a) && !now.read_by(a)) old_only.push_back(a);
    if (!old.read_by(a) && now.read_by(a)) new_only.push_back(a);
  }
  if (!old_only.empty() || !new_only.empty())
    out.push_back(fmt::format("{}: algorithms: catalog only [{}], schema only [{}]", k,
                              join(old_only), join(new_only)));
  old_only.clear();
  new_only.clear();
  for (const std::string& f : families) {
    if (old.applies_to_family(f) && !now.applies_to_family(f)) old_only.push_back(f);
    if (!old.applies_to_family(f) && now.applies_to_family(f)) new_only.push_back(f);
  }
  if (!old_only.empty() || !new_only.empty())
    out.push_back(fmt::format("{}: families: catalog only [{}], schema only [{}]", k,
                              join(old_only), join(new_only)));
  // Defaults: for every (algorithm, family) that both read, unless a note stands for them.
  std::map<std::pair<std::string, std::string>, std::set<std::string>> wrong;  // (old, new)
  for (const std::string& a : algorithms)
    for (const std::string& f : families) {
      if (!(old.read_by(a) && old.applies_to_family(f) && now.read_by(a) &&
            now.applies_to_family(f)))
        continue;
      const std::optional<std::string> o = old.default_for(a, f);
      const std::optional<schema::Resolved> n = now.default_for(a, f);
      const std::string ot = o ? *o : "(none)";
      const std::string nt = !n                                        ? "(none)"
                             : n->kind == schema::Resolved::Kind::null ? "(null)"
                                                                       : n->text;
      if (!old.default_note.empty() && !old.literal_defaults) continue;  // the note is compared
      if (ot != nt) wrong[{ot, nt}].insert(now.owner == schema::Owner::family ? f : a);
    }
  for (const auto& [values, who] : wrong)
    out.push_back(fmt::format("{}: default: catalog '{}', schema '{}' for [{}]", k, values.first,
                              values.second, join({who.begin(), who.end()})));
  return out;
}

// Each difference is a fault of the old catalog that the declarations correct.
const std::set<std::string>& expected_differences() {
  static const std::set<std::string> e = {
      // The catalog says every algorithm reads the keys of the own TS step and of the message
      // features, but po_gp_ucb, gp_ucb and dp_bo (GP-UCB, no TS step, no messages) never
      // read them: the unknown-key message then says "did you mean" instead of "a key of
      // algorithms fts_de, ...", and `fbosim keys` says "used by all".
      "acquisition.max_iterations: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], "
      "schema only []",
      "acquisition.random_points: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], "
      "schema only []",
      "acquisition.starts: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only []",
      "gp.fit: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only []",
      "gp.fit_at_init: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only []",
      "gp.max_iterations: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only []",
      "gp.refit_every: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only []",
      "gp.refit_on: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only []",
      "gp.restarts: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only []",
      "local_ts.features: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only []",
      "local_ts.noise_floor: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only "
      "[]",
      "local_ts.redraw: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only []",
      "rff.features: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only []",
      "rff.lambda: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only []",
      "rff.lengthscale: algorithms: catalog only [po_gp_ucb, gp_ucb, dp_bo], schema only []",
      // dp_bo's kernel is normalised (k(x, x) = 1): its reader never reads gp.signal_var.
      "gp.signal_var: algorithms: catalog only [dp_bo], schema only []",
      // The registry moves to algorithms/systems/algorithm_registry.cpp.
      "algorithm: meaning",
      // "(> 0 except for po_gp_ucb, gp_ucb, and dp_bo with noise-free observations, where it
      // must be 0)": po_gp_ucb and gp_ucb take any value >= 0, not only 0.
      "gp.noise_var: meaning",
      // "... ([choice]; the spec's 10)`emnist`: in [1, 100000]": a cut-and-paste remnant and a
      // reference to a specification users do not have; the per-family defaults (activity 20,
      // emnist 10) are the structs' initialisers, shown per family, not a note.
      "objective.epochs: default note: catalog 'activity 20, emnist 10', schema ''",
      "objective.epochs: meaning",
      // "(every x was stored twice; spec item 14)": a specification users do not have.
      "sources.pairing: meaning",
      // Issue 29: Kusner et al.'s Algorithm 3, a third release mechanism of dp_bo (its meaning
      // and release.delta's say what it does).
      "release.delta: meaning",
      "release.mechanism: choices: catalog 'kusner, papernot_steinke', schema 'kusner, "
      "papernot_steinke, kusner_lipschitz'",
      "release.mechanism: meaning",
      "release.mechanism: range: catalog 'kusner | papernot_steinke', schema 'kusner | "
      "papernot_steinke | kusner_lipschitz'",
      // Issue 29's kernels (gp.kernel, gp.ard) and fit methods (gp.fit_method): gp.fit learns
      // their hyperparameters, not only the SE ones, and not only by marginal likelihood.
      "gp.fit: meaning",
      // Issue 39: a DE name needs P >= 2, so a config without `algorithm` runs dp_fts_de only
      // where it gives P >= 2 (else dp_fts); server.delta's default is server.delta_rule's
      // (min(1e-5, 1/(10 N)), or the papers' N^-1.1), and N = 1 needs server.delta only under
      // the papers' rule.
      "algorithm: default note: catalog '', schema 'dp_fts_de where exploration.subregions >= 2 "
      "is given, else dp_fts'",
      "exploration.subregions: meaning",
      "server.delta: meaning",
      "server.delta: default note: catalog 'N^-1.1', schema 'server.delta_rule's'",
      "agents.count: meaning",
      // The reader accepts only accountant names in the list; the catalog did not say so.
      "server.accountants: range: catalog '', schema 'moments | rdp | pld | gdp | basic'",
      // Issue 41: under the schedules on the clock network latencies are seconds per (agent,
      // evaluation), dropouts per evaluation's message, and network.deadline is refused.
      "network.latency.distribution: meaning",
      "network.deadline: meaning",
      "network.dropout: meaning",
  };
  return e;
}

// Keys declared after the hand-written catalog went (their declarations are the catalog).
const std::set<std::string>& added_since() {
  static const std::set<std::string> keys = schema_test::read_added_keys(FBOSIM_SOURCE_DIR);
  return keys;
}

}  // namespace

TEST_CASE("schema: every key of the catalog is declared once, the same way, beside its struct") {
  const schema::Catalog& now = config::key_catalog();
  // The algorithms and families of the hand-written catalog (later ones have no entry there).
  const std::vector<std::string> algorithms = {"fts_de",    "ts",         "fts",  "dp_fts",
                                               "dp_fts_de", "fts_target", "rgpe", "taf",
                                               "po_gp_ucb", "gp_ucb",     "dp_bo"};
  const std::vector<std::string> families = {"gp_grid",  "heterogeneous", "gp_box", "gp_grid2d",
                                             "landmine", "activity",      "emnist", "branin",
                                             "table",    "command",       "python"};
  const std::vector<OldKey> old_catalog = hand_catalog();
  std::vector<std::string> found;
  std::set<std::string> old_keys;
  for (const OldKey& old : old_catalog) {
    old_keys.insert(old.key);
    const schema::CatalogKey* k = now.find(old.key);
    if (!k) {
      found.push_back(old.key + ": only in the catalog");
      continue;
    }
    INFO(old.key << "\n  catalog meaning: " << old.meaning
                 << "\n  schema meaning:  " << k->doc.meaning);
    const auto diff = differences(old, *k, algorithms, families);
    found.insert(found.end(), diff.begin(), diff.end());
  }
  for (const schema::CatalogKey& k : now.keys())
    if (!old_keys.count(k.doc.path) && !added_since().count(k.doc.path))
      found.push_back(k.doc.path + ": only in the schema");
  for (const std::string& k : added_since()) {
    INFO(k << " is listed as added, but nothing declares it (or the old catalog had it)");
    CHECK((now.find(k) && !old_keys.count(k)));
  }
  const std::set<std::string> got(found.begin(), found.end());
  std::vector<std::string> unexpected, gone;
  for (const std::string& f : got)
    if (!expected_differences().count(f)) unexpected.push_back(f);
  for (const std::string& e : expected_differences())
    if (!got.count(e)) gone.push_back(e);
  CHECK(unexpected == std::vector<std::string>{});
  CHECK(gone == std::vector<std::string>{});
}
