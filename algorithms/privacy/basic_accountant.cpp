#include "algorithms/privacy/basic_accountant.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::privacy {

bool BasicAccountant::supports_mechanism(const DpEvent& event) const {
  return event.as<EpsilonDelta>() || event.as<Laplace>();
}

void BasicAccountant::compose_mechanism(const DpEvent& event, long long count) {
  const auto n = static_cast<double>(count);
  if (const auto* e = event.as<EpsilonDelta>()) {
    epsilon_sum_ += n * e->epsilon;
    delta_sum_ += n * e->delta;
  } else {
    epsilon_sum_ += n / event.as<Laplace>()->scale;  // Laplace(b), sensitivity 1: (1/b, 0)-DP
  }
}

EpsilonResult BasicAccountant::private_epsilon(double delta) const {
  if (!(delta >= 0 && delta < 1))
    throw std::invalid_argument(fmt::format("delta must be in [0, 1), got {}", delta));
  if (delta < delta_sum_)
    throw std::domain_error(fmt::format(
        "basic composition gives (epsilon, {})-DP: delta = {} is below the composed delta sum",
        delta_sum_, delta));
  return {epsilon_sum_, 0.0};
}

}  // namespace fbosim::privacy
