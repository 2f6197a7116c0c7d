#pragma once
// The hand-written key catalog (issue #14): every config key with its default(s), its range or
// choices, the algorithms and objective families that read it, and its meaning, as
// `fbosim keys` prints it and docs/CONFIG.md's tables show it (`fbosim keys --markdown`,
// checked by a test). Since issue 25 the config reader reads through the declarations beside
// the option structs (sim/schema) and names a key's owners from them; this table only
// documents, and tests/sim/schema/catalog_guard_test keeps it equal to the declarations but
// for the faults it lists. [to be replaced by a view of schema::Catalog]
#include <optional>
#include <string>
#include <vector>

namespace fbosim::config {

struct KeyDoc {
  /// A numeric key's range [lo, hi] (an open end excludes its value; no value: unbounded).
  struct Bounds {
    std::optional<double> lo, hi;
    bool lo_open = false, hi_open = false;
    bool contains(double v) const;
    std::string text() const;  ///< "[1, 100000]", "> 0", "(0, 1]", ">= 0", ...
  };
  /// The default for the algorithms listed (comma-separated; "" = every algorithm), and for the
  /// objective families listed ("" = every family; a family's own entry wins).
  struct Default {
    std::string algorithms;
    std::string value;
    std::string families = "";
  };

  std::string key;
  std::string algorithms;  ///< the algorithms that read it (comma-separated; "" = every one)
  std::string families;    ///< the objective families it applies to ("" = every one)
  std::optional<Bounds> bounds;
  /// Space-separated choices; "@algorithms", "@accountants" and "@families" stand for the
  /// registries.
  std::string choices;
  std::vector<Default> defaults;
  std::string default_note;  ///< a default that is not a literal ("N^-1.1", "file stem")
  std::string meaning;

  /// The choices as a list (the registries expanded).
  std::vector<std::string> choice_list() const;
  /// The default for `algorithm` on `family` ("": any), if the key has a literal one.
  std::optional<std::string> default_for(const std::string& algorithm,
                                         const std::string& family = "") const;
  /// The default(s) as text ("50; fts_target, rgpe, taf: 100").
  std::string default_text() const;
  /// The range as text: bounds, choices, "true | false" or "".
  std::string range_text() const;
  bool read_by(const std::string& algorithm) const;
  bool applies_to_family(const std::string& family) const;
};

/// Every key, in documentation order.
const std::vector<KeyDoc>& key_catalog();
/// The key's entry, or null.
const KeyDoc* find_key(const std::string& key);
/// The keys starting with `prefix` as lines "key  default  range  meaning" (fbosim keys).
std::string keys_text(const std::string& prefix);
/// The Markdown tables of docs/CONFIG.md.
std::string keys_markdown();

}  // namespace fbosim::config
