#include "sim/timeline/on_off_availability.hpp"

#include <stdexcept>

#include "sim/timeline/parameter_check.hpp"
#include "sim/timeline/reproducible_draws.hpp"

namespace fbosim::timeline {

namespace {
constexpr std::string_view kOnKey = "timing.availability.on";
constexpr std::string_view kOffKey = "timing.availability.off";

// [start, start + length), or nothing once start reaches the time line's end.
std::optional<Interval> clipped(Tick start, Tick length) {
  if (start >= kEndOfTime) return std::nullopt;
  return Interval{start, start + length >= kEndOfTime ? kEndOfTime : start + length};
}
}  // namespace

OnOffAvailability::OnOffAvailability(AvailabilityKind kind, double on, double off,
                                     core::RngFactory streams)
    : kind_(kind), on_(on), off_(off), streams_(streams) {
  if (kind != AvailabilityKind::exponential && kind != AvailabilityKind::fixed)
    throw std::logic_error("OnOffAvailability: the model must be exponential or fixed");
  require_seconds(kOnKey, on);
  require_seconds(kOffKey, off);
  on_ticks_ = duration_ticks(on, kOnKey);
  off_ticks_ = duration_ticks(off, kOffKey);
}

std::optional<Interval> OnOffAvailability::interval(int agent, std::int64_t j,
                                                    const Interval& previous) const {
  return kind_ == AvailabilityKind::fixed ? fixed(agent, j, previous)
                                          : exponential(agent, j, previous);
}

std::optional<Interval> OnOffAvailability::exponential(int agent, std::int64_t j,
                                                       const Interval& previous) const {
  const auto n = static_cast<std::uint64_t>(agent);
  core::RngStream rng = streams_.stream("timing.availability", n, static_cast<std::uint64_t>(j));
  if (j == 0) {
    const bool online = rng.uniform() * (on_ + off_) < on_;
    const Tick gap = online ? 0 : duration_ticks(off_ * standard_exponential(rng), kOffKey);
    return clipped(gap, duration_ticks(on_ * standard_exponential(rng), kOnKey));
  }
  if (previous.end >= kEndOfTime) return std::nullopt;
  const Tick gap = duration_ticks(off_ * standard_exponential(rng), kOffKey);
  // previous.end and gap are below 2^62: the sum cannot overflow.
  return clipped(previous.end + gap, duration_ticks(on_ * standard_exponential(rng), kOnKey));
}

std::optional<Interval> OnOffAvailability::fixed(int agent, std::int64_t j,
                                                 const Interval& previous) const {
  if (j > 0) {
    if (previous.end >= kEndOfTime) return std::nullopt;
    return clipped(previous.end + off_ticks_, on_ticks_);
  }
  const Tick cycle = on_ticks_ + off_ticks_;
  core::RngStream rng = streams_.stream("timing.availability", static_cast<std::uint64_t>(agent));
  const auto phase = static_cast<Tick>(rng.uniform_int(static_cast<std::uint64_t>(cycle)));
  // At time 0 the agent is `phase` ticks into its cycle, which starts online: interval 0 is the
  // rest of that online period, or the next one when it starts offline.
  if (phase < on_ticks_) return Interval{0, on_ticks_ - phase};
  return clipped(cycle - phase, on_ticks_);
}

}  // namespace fbosim::timeline
