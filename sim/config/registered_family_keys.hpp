#pragma once
// The key catalog's rows for the objective families that it does not list by hand (branin,
// table, command, python, and any family added later through the registry): made from their
// declarations, so that `fbosim keys` and docs/CONFIG.md show them. Reading no longer needs
// this (the config loader reads every family through its registry entry's group); it goes
// when the catalog becomes a view of schema::Catalog (issue 25, step 4).
#include <vector>

#include "sim/config/key_catalog.hpp"

namespace fbosim::config {

/// Adds the keys of every registered family that no row of `catalog` names (a key already
/// there gets the family in its list and the family's default where it differs).
void add_registered_family_keys(std::vector<KeyDoc>& catalog);

}  // namespace fbosim::config
