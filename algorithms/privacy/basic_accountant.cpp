#include "algorithms/privacy/basic_accountant.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::privacy {

namespace {

// epsilon of a pure-DP mechanism node (Laplace(b): 1/b; EpsilonDelta(eps, 0): eps), if it is one.
std::optional<double> pure_epsilon(const DpEvent& event) {
  if (const auto* l = event.as<Laplace>()) return 1 / l->scale;
  if (const auto* e = event.as<EpsilonDelta>(); e && e->delta == 0) return e->epsilon;
  return std::nullopt;
}

}  // namespace

bool BasicAccountant::supports_mechanism(const DpEvent& event) const {
  if (const auto* r = event.as<RepeatAndSelect>())
    return std::isfinite(r->shape) && pure_epsilon(*r->event).has_value();
  return event.as<EpsilonDelta>() || event.as<Laplace>();
}

void BasicAccountant::compose_mechanism(const DpEvent& event, long long count) {
  const auto n = static_cast<double>(count);
  if (const auto* r = event.as<RepeatAndSelect>()) {
    epsilon_sum_ += n * (2 + r->shape) * *pure_epsilon(*r->event);  // P&S 2022, Thm. 2's limit
  } else if (const auto* e = event.as<EpsilonDelta>()) {
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

std::optional<double> composed_delta(const std::vector<DpEvent>& events) {
  BasicAccountant basic;
  for (const DpEvent& e : events) basic.compose(e);
  if (basic.delta_sum() > 0 && basic.delta_sum() < 1) return basic.delta_sum();
  return std::nullopt;
}

AccountantEntry basic_accountant_entry() {
  return {"basic",
          "basic composition: sums of the epsilons and deltas of pure and approximate DP events",
          [] { return std::make_unique<BasicAccountant>(); }, true};
}

}  // namespace fbosim::privacy
