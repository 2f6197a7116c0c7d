#include "sim/config/experiment_spec.hpp"

#include <cmath>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"

namespace fbosim::config {

std::string epsilon_column(const std::string& accountant) {
  return "epsilon_" + accountant +
         (privacy::make_accountant(accountant)->is_bound() ? "" : "_approx");
}

double ExperimentSpec::delta() const {
  return server.delta ? *server.delta : std::pow(static_cast<double>(agents), -1.1);
}

}  // namespace fbosim::config
