#pragma once
// The list of accountants (issue 25): each entry is defined beside its accountant
// (x_accountant_entry(), accountant_entry.hpp) and listed once, in order, in
// accountant_registry.cpp, the one file that knows them all.
#include <memory>
#include <string>
#include <vector>

#include "algorithms/privacy/accountant_entry.hpp"
#include "schema/registry.hpp"

namespace fbosim::privacy {

/// Every accountant, the default (moments) first.
const schema::Registry<AccountantEntry>& accountant_registry();

/// The names make_accountant knows, the default ("moments") first.
const std::vector<std::string>& accountant_names();

/// Creates an accountant by name; throws std::invalid_argument on an unknown name.
std::unique_ptr<Accountant> make_accountant(const std::string& name);

}  // namespace fbosim::privacy
