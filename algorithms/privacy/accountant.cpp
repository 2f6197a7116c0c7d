#include "algorithms/privacy/accountant.hpp"

#include <stdexcept>

#include "algorithms/privacy/moments_accountant.hpp"

namespace fbosim::privacy {

std::unique_ptr<Accountant> make_accountant(const std::string& name) {
  if (name == "moments") return std::make_unique<MomentsAccountant>();
  throw std::invalid_argument("unknown accountant '" + name + "'; known: moments");
}

}  // namespace fbosim::privacy
