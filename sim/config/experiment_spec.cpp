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

namespace fbosim::config {

const systems::FtsDeConfig* ExperimentSpec::fts_de() const {
  const auto* s = dynamic_cast<const systems::FtsDeSystem*>(system.get());
  return s ? &s->config() : nullptr;
}

}  // namespace fbosim::config
