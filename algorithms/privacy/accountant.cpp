#include "algorithms/privacy/accountant.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/privacy/gdp_accountant.hpp"
#include "algorithms/privacy/moments_accountant.hpp"
#include "algorithms/privacy/pld_accountant.hpp"
#include "algorithms/privacy/rdp_accountant.hpp"

namespace fbosim::privacy {

const std::vector<std::string>& accountant_names() {
  static const std::vector<std::string> names{"moments", "rdp", "pld", "gdp"};
  return names;
}

std::unique_ptr<Accountant> make_accountant(const std::string& name) {
  if (name == "moments") return std::make_unique<MomentsAccountant>();
  if (name == "rdp") return std::make_unique<RdpAccountant>();
  if (name == "pld") return std::make_unique<PldAccountant>();
  if (name == "gdp") return std::make_unique<GdpAccountant>();
  throw std::invalid_argument(
      fmt::format("unknown accountant '{}'; known: {}", name, fmt::join(accountant_names(), ", ")));
}

}  // namespace fbosim::privacy
