#include "algorithms/privacy/neighbour_relation.hpp"

#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace fbosim::privacy {

DpEvent without_sampling(const DpEvent& event) {
  return std::visit(
      [&](const auto& e) -> DpEvent {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, PoissonSampled> || std::is_same_v<T, FixedSampled>) {
          return without_sampling(*e.event);
        } else if constexpr (std::is_same_v<T, SelfComposed>) {
          return DpEvent::self_composed(without_sampling(*e.event), e.count);
        } else if constexpr (std::is_same_v<T, Composed>) {
          std::vector<DpEvent> parts;
          for (const DpEvent& p : e.events) parts.push_back(without_sampling(p));
          return DpEvent::composed(std::move(parts));
        } else if constexpr (std::is_same_v<T, RepeatAndSelect>) {
          return DpEvent::repeat_and_select(without_sampling(*e.event), e.mean, e.shape);
        } else {
          return event;
        }
      },
      event.node());
}

DpEvent replace_one(const DpEvent& event) {
  return std::visit(
      [&](const auto& e) -> DpEvent {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, Gaussian>) {
          return DpEvent::gaussian(e.noise_multiplier / 2);
        } else if constexpr (std::is_same_v<T, Laplace>) {
          return DpEvent::laplace(e.scale / 2);
        } else if constexpr (std::is_same_v<T, SelfComposed>) {
          return DpEvent::self_composed(replace_one(*e.event), e.count);
        } else if constexpr (std::is_same_v<T, Composed>) {
          std::vector<DpEvent> parts;
          for (const DpEvent& p : e.events) parts.push_back(replace_one(p));
          return DpEvent::composed(std::move(parts));
        } else if constexpr (std::is_same_v<T, RepeatAndSelect>) {
          return DpEvent::repeat_and_select(replace_one(*e.event), e.mean, e.shape);
        } else if constexpr (std::is_same_v<T, NoOp> || std::is_same_v<T, NonPrivate>) {
          return event;
        } else {
          throw std::invalid_argument("replace_one: no replace-one form of " + to_string(event) +
                                      " (a sampled event: remove the sampling first)");
        }
      },
      event.node());
}

}  // namespace fbosim::privacy
