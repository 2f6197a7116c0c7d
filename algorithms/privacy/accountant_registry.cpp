#include "algorithms/privacy/accountant_registry.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/privacy/basic_accountant.hpp"
#include "algorithms/privacy/gdp_accountant.hpp"
#include "algorithms/privacy/moments_accountant.hpp"
#include "algorithms/privacy/pld_accountant.hpp"
#include "algorithms/privacy/rdp_accountant.hpp"

namespace fbosim::privacy {

const schema::Registry<AccountantEntry>& accountant_registry() {
  static const schema::Registry<AccountantEntry> r = [] {
    schema::Registry<AccountantEntry> out;
    out.add(moments_accountant_entry())
        .add(rdp_accountant_entry())
        .add(pld_accountant_entry())
        .add(gdp_accountant_entry())
        .add(basic_accountant_entry());
    return out;
  }();
  return r;
}

const std::vector<std::string>& accountant_names() {
  static const std::vector<std::string> names = accountant_registry().names();
  return names;
}

std::unique_ptr<Accountant> make_accountant(const std::string& name) {
  if (const AccountantEntry* e = accountant_registry().find(name)) return e->make();
  throw std::invalid_argument(
      fmt::format("unknown accountant '{}'; known: {}", name, fmt::join(accountant_names(), ", ")));
}

}  // namespace fbosim::privacy
