#pragma once
// The key catalog as a view of the declarations: every key of the experiment, of each
// algorithm and of each objective family, merged by path, with each owner's default. What
// `fbosim keys`, docs/CONFIG.md and the unknown-key messages ("a key of algorithm X") are
// built from once the config reader reads through the schema.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schema/key.hpp"

namespace fbosim::schema {

/// Who declares a key: the experiment itself, an algorithm, or an objective family.
enum class Owner { experiment, algorithm, family };

struct CatalogKey {
  struct Default {
    Owner owner;
    std::string name;  ///< the algorithm or family ("" for the experiment)
    Resolved value;    ///< that owner's default (its struct's value, presets applied)
  };
  KeyDoc doc;   ///< the declaration (default_value: the first owner's)
  Owner owner;  ///< the kind of owner that declares it
  /// The algorithms or families that declare it, in the order added (empty for the experiment).
  std::vector<std::string> owners;
  std::vector<Default> defaults;

  /// Whether the algorithm reads it (keys of the experiment and of families: every one).
  bool read_by(const std::string& algorithm) const;
  /// Whether it applies to the family (keys of the experiment and of algorithms: every one).
  bool applies_to_family(const std::string& family) const;
  /// Its default for `algorithm` on `family`: the family's (a family key), the algorithm's (an
  /// algorithm key), or the experiment's unless the algorithm overrides it (add_default); none
  /// when that owner does not declare it.
  std::optional<Resolved> default_for(const std::string& algorithm,
                                      const std::string& family) const;
};

class Catalog {
 public:
  /// Adds the keys one owner declares. Throws std::logic_error when a key added before is
  /// declared differently (type, optional, range, choices, meaning, default note) or by
  /// another kind of owner: a key means one thing everywhere.
  void add(Owner owner, const std::string& name, const std::vector<KeyDoc>& keys);
  /// An algorithm's own default of an experiment key (its preset, e.g. server.accountant);
  /// throws std::logic_error unless the experiment declares the key.
  void add_default(const std::string& path, const std::string& algorithm, const Resolved& value);
  /// Every key, in the order first added.
  const std::vector<CatalogKey>& keys() const { return keys_; }
  /// The key at path, or null.
  const CatalogKey* find(std::string_view path) const;

 private:
  std::vector<CatalogKey> keys_;
};

/// The first field in which two declarations of a key differ ("range", "meaning", ...), or "".
std::string declaration_difference(const KeyDoc& a, const KeyDoc& b);

}  // namespace fbosim::schema
