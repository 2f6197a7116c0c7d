#pragma once
// The key catalog (issue 25): a view of the declarations beside the option structs. Every key
// of the experiment, of each algorithm (its presets applied) and of each objective family,
// merged by path with each owner's default, as `fbosim keys` prints it, docs/CONFIG.md's
// tables show it (`fbosim keys --markdown`, checked by a test) and the unknown-key messages
// ("a key of algorithm X") ask it. Nothing here is written by hand but the section titles.
#include <string>

#include "schema/catalog.hpp"

namespace fbosim::config {

/// Every declared key, in the order first declared (the experiment's, then the algorithms' in
/// registry order, then the families'), built once.
const schema::Catalog& key_catalog();
/// The default(s) as text: the note, or the most common owner's value first and the others
/// named ("50; fts_target, rgpe, taf: 100", "0.03; objective.family gp_grid2d: 1.25").
std::string default_text(const schema::CatalogKey& key);
/// The range as text: choices, bounds, "true | false" or "".
std::string range_text(const schema::KeyDoc& doc);
/// "all", "algorithms fts_target, rgpe, taf" or "families landmine".
std::string used_by(const schema::CatalogKey& key);
/// The keys starting with `prefix` as lines "key  default  range  meaning" (fbosim keys).
std::string keys_text(const std::string& prefix);
/// The Markdown tables of docs/CONFIG.md.
std::string keys_markdown();

}  // namespace fbosim::config
