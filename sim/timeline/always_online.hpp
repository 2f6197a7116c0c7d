#pragma once
// Every agent online for ever (the papers' world; timing.availability.model: always).
#include "sim/timeline/availability.hpp"

namespace fbosim::timeline {

class AlwaysOnline final : public Availability {
 public:
  std::optional<Interval> interval(int, std::int64_t j, const Interval&) const override {
    if (j == 0) return Interval{0, kEndOfTime};
    return std::nullopt;
  }
};

}  // namespace fbosim::timeline
