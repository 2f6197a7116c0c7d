#pragma once
// TEMPORARY WIRING FOR THE OLD READER (issue 25 section 2): until the config reader reads every
// key through the registries' schema groups (branch i25-switch), this bridge lets it read the
// objective families added through the registry after it was written (branin, table, command,
// python, and any later one) without a line per family in sim/: their keys join the key
// catalog from their declarations, and their settings are read through their groups. Drop
// this file (and its three call sites) when the switch lands.
#include <string>
#include <vector>

#include "datasets/objective_factory.hpp"
#include "sim/config/config_reader.hpp"
#include "sim/config/key_catalog.hpp"

namespace fbosim::config {

/// The families that the old reader reads with its own code (gp_grid ... emnist).
bool is_legacy_family(const std::string& family);
/// Adds the keys of every other registered family to the catalog (a key already there gets
/// the family in its list and the family's default).
void add_registered_family_keys(std::vector<KeyDoc>& catalog);
/// Reads the keys of o.family (not a legacy family) through its registry entry's group into
/// o.options: every key read by `r` (types, the catalog's bounds, the resolved record), then the
/// group's ranges, choices and checks. Throws ConfigError.
void read_registered_family(ConfigReader& r, datasets::ObjectiveSpec& o);

}  // namespace fbosim::config
