#include "schema/catalog.hpp"

#include <algorithm>
#include <stdexcept>

namespace fbosim::schema {

namespace {
bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}
}  // namespace

bool CatalogKey::read_by(const std::string& algorithm) const {
  return owner != Owner::algorithm || listed(owners, algorithm);
}

bool CatalogKey::applies_to_family(const std::string& family) const {
  return owner != Owner::family || listed(owners, family);
}

std::optional<Resolved> CatalogKey::default_for(const std::string& algorithm,
                                                const std::string& family) const {
  if (owner == Owner::experiment) {
    for (const Default& d : defaults)
      if (d.owner == Owner::algorithm && d.name == algorithm) return d.value;
    for (const Default& d : defaults)
      if (d.owner == Owner::experiment) return d.value;
    return std::nullopt;
  }
  const std::string& wanted = owner == Owner::family ? family : algorithm;
  for (const Default& d : defaults)
    if (d.owner == owner && d.name == wanted) return d.value;
  return std::nullopt;
}

std::string declaration_difference(const KeyDoc& a, const KeyDoc& b) {
  if (a.path != b.path) return "path";
  if (a.type != b.type) return "type";
  if (a.optional != b.optional) return "optional";
  if (a.range != b.range) return "range";
  if (a.choices != b.choices) return "choices";
  if (a.meaning != b.meaning) return "meaning";
  if (a.default_note != b.default_note) return "default note";
  return "";
}

void Catalog::add(Owner owner, const std::string& name, const std::vector<KeyDoc>& keys) {
  if ((owner == Owner::experiment) != name.empty())
    throw std::logic_error("schema::Catalog: the experiment has no name, the others one");
  for (const KeyDoc& doc : keys) {
    auto it = std::find_if(keys_.begin(), keys_.end(),
                           [&](const CatalogKey& k) { return k.doc.path == doc.path; });
    if (it == keys_.end()) {
      keys_.push_back({doc, owner, {}, {}});
      it = keys_.end() - 1;
    } else {
      if (it->owner != owner)
        throw std::logic_error("schema::Catalog: key '" + doc.path +
                               "' is declared by owners of different kinds");
      if (const std::string field = declaration_difference(it->doc, doc); !field.empty())
        throw std::logic_error("schema::Catalog: key '" + doc.path + "' of '" + name +
                               "' differs in its " + field + " from its earlier declaration");
      if (owner == Owner::experiment)
        throw std::logic_error("schema::Catalog: key '" + doc.path + "' added twice");
    }
    if (owner != Owner::experiment) {
      if (listed(it->owners, name))
        throw std::logic_error("schema::Catalog: key '" + doc.path + "' added twice for '" + name +
                               "'");
      it->owners.push_back(name);
    }
    it->defaults.push_back({owner, name, doc.default_value});
  }
}

void Catalog::add_default(const std::string& path, const std::string& algorithm,
                          const Resolved& value) {
  CatalogKey* k = nullptr;
  for (CatalogKey& c : keys_)
    if (c.doc.path == path) k = &c;
  if (!k || k->owner != Owner::experiment)
    throw std::logic_error("schema::Catalog::add_default: '" + path +
                           "' is not a key of the experiment");
  k->defaults.push_back({Owner::algorithm, algorithm, value});
}

const CatalogKey* Catalog::find(std::string_view path) const {
  for (const CatalogKey& k : keys_)
    if (k.doc.path == path) return &k;
  return nullptr;
}

}  // namespace fbosim::schema
