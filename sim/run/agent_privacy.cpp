#include "sim/run/agent_privacy.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/privacy/accountant_registry.hpp"

namespace fbosim::run {

AgentPrivacy::AgentPrivacy(const config::ExperimentSpec& spec)
    : delta_(spec.delta()), ledgers_(spec.agents) {
  names_.push_back(spec.server.accountant);
  if (!privacy::make_accountant(spec.server.accountant)->is_bound())
    throw std::invalid_argument(fmt::format(
        "server.accountant: '{}' is an approximation, not a bound; it cannot fill the epsilon "
        "column",
        spec.server.accountant));
  for (const std::string& a : spec.server.accountants) {
    privacy::make_accountant(a);  // an unknown name fails here, before any run
    names_.push_back(a);
  }
  cache_.resize(names_.size());
}

void AgentPrivacy::charge(int agent, const privacy::DpEvent& event, long long count) {
  if (event.as<privacy::NoOp>()) return;
  ledgers_.charge(agent, event, count);
  for (auto& c : cache_) c.clear();
}

void AgentPrivacy::charge_all(const privacy::DpEvent& event, long long count) {
  if (event.as<privacy::NoOp>()) return;
  ledgers_.charge_all(event, count);
  for (auto& c : cache_) c.clear();
}

const std::vector<double>& AgentPrivacy::epsilons(std::size_t accountant,
                                                  const std::string& where) {
  std::vector<double>& eps = cache_.at(accountant);
  if (!eps.empty()) return eps;
  const std::string& name = names_[accountant];
  try {
    eps = ledgers_.epsilons([&name] { return privacy::make_accountant(name); }, delta_);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(
        fmt::format("the {} accountant of the agents' ledgers {}: {}", name, where, e.what()));
  }
  return eps;
}

std::vector<double> AgentPrivacy::spent(const std::string& where) {
  std::vector<double> out;
  for (std::size_t a = 0; a < names_.size(); ++a)
    out.push_back(privacy::spread(epsilons(a, where)).max);
  return out;
}

privacy::EpsilonSpread AgentPrivacy::spread(const std::string& where) {
  return privacy::spread(epsilons(0, where));
}

}  // namespace fbosim::run
