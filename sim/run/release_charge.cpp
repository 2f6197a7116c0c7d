#include "sim/run/release_charge.hpp"

#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

namespace fbosim::run {

privacy::DpEvent without_sampling(const privacy::DpEvent& event) {
  using privacy::DpEvent;
  return std::visit(
      [&](const auto& e) -> DpEvent {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, privacy::PoissonSampled> ||
                      std::is_same_v<T, privacy::FixedSampled>) {
          return without_sampling(*e.event);
        } else if constexpr (std::is_same_v<T, privacy::SelfComposed>) {
          return DpEvent::self_composed(without_sampling(*e.event), e.count);
        } else if constexpr (std::is_same_v<T, privacy::Composed>) {
          std::vector<DpEvent> parts;
          for (const DpEvent& p : e.events) parts.push_back(without_sampling(p));
          return DpEvent::composed(std::move(parts));
        } else if constexpr (std::is_same_v<T, privacy::RepeatAndSelect>) {
          return DpEvent::repeat_and_select(without_sampling(*e.event), e.mean, e.shape);
        } else {
          return event;
        }
      },
      event.node());
}

privacy::DpEvent charged_event(protocol::ScheduleKind kind, const privacy::DpEvent& event) {
  switch (kind) {
    case protocol::ScheduleKind::buffered:
      return without_sampling(event);
    case protocol::ScheduleKind::periodic:
    case protocol::ScheduleKind::deadline:
    case protocol::ScheduleKind::latest:
      return event;
    case protocol::ScheduleKind::rounds:
      break;
  }
  throw std::logic_error("charged_event: the rounds schedule charges every agent (RunEngine)");
}

ReleaseCharge release_charge(protocol::ScheduleKind kind, const privacy::DpEvent& event,
                             std::vector<int> eligible) {
  return {charged_event(kind, event), std::move(eligible)};
}

}  // namespace fbosim::run
