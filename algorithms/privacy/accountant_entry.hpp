#pragma once
// One accountant as a registry entry (issue 25), in a file of its own so that an accountant
// declares its entry without seeing the registry that lists them all (as dp_accounting's
// PrivacyAccountant base imports none of its accountants).
#include <functional>
#include <memory>
#include <string>

#include "algorithms/privacy/accountant.hpp"

namespace fbosim::privacy {

/// One accountant of the registry: the `server.accountant(s)` name, a line for the
/// documentation, its factory, and whether its epsilon is an upper bound.
struct AccountantEntry {
  std::string name;
  std::string summary;
  std::function<std::unique_ptr<Accountant>()> make;
  /// Whether epsilon() is an upper bound on the true privacy loss (Accountant::is_bound()): only
  /// a sound accountant may give a run's `epsilon` column (gdp's approximation may not).
  bool sound = true;
};

}  // namespace fbosim::privacy
