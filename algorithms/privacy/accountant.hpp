#pragma once
// The accountant interface (house rule 4; after dp_accounting's PrivacyAccountant).
#include <memory>
#include <string>
#include <vector>

#include "algorithms/privacy/dp_event.hpp"

namespace fbosim::privacy {

/// epsilon together with the RDP order that attains it (0 when not applicable).
struct EpsilonResult {
  double epsilon;
  double order;
};

class Accountant {
 public:
  virtual ~Accountant() = default;
  virtual std::string name() const = 0;
  /// Composes `count` repetitions of `event`. Throws std::invalid_argument for an event the
  /// accountant cannot account for (never a silently wrong epsilon).
  virtual void compose(const DpEvent& event, int count = 1) = 0;
  /// Smallest epsilon such that everything composed so far is (epsilon, delta)-DP.
  virtual EpsilonResult epsilon(double delta) const = 0;
  /// Number of events composed so far.
  virtual int steps() const = 0;
};

/// The names make_accountant knows, the default ("moments") first.
const std::vector<std::string>& accountant_names();

/// Creates an accountant by name; throws std::invalid_argument on an unknown name.
std::unique_ptr<Accountant> make_accountant(const std::string& name);

}  // namespace fbosim::privacy
