#include "algorithms/server/adaptive_clip.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::server {

AdaptiveClip::AdaptiveClip(double clip_norm, double quantile, double learning_rate,
                           double count_noise)
    : clip_norm_(clip_norm),
      quantile_(quantile),
      learning_rate_(learning_rate),
      count_noise_(count_noise) {
  if (!(std::isfinite(clip_norm) && clip_norm > 0))
    throw std::invalid_argument(
        fmt::format("server.clip_norm must be finite and > 0, got {}", clip_norm));
  if (!(quantile > 0 && quantile < 1))
    throw std::invalid_argument(
        fmt::format("server.clip_quantile must be in (0, 1), got {}", quantile));
  if (!(std::isfinite(learning_rate) && learning_rate > 0))
    throw std::invalid_argument(
        fmt::format("server.clip_learning_rate must be finite and > 0, got {}", learning_rate));
  if (!(std::isfinite(count_noise) && count_noise > 0))
    throw std::invalid_argument(
        fmt::format("server.clip_count_noise must be finite and > 0, got {}", count_noise));
}

double AdaptiveClip::next_clip_norm(double clip_norm, double unclipped_fraction, double quantile,
                                    double learning_rate) {
  return clip_norm * std::exp(-learning_rate * (unclipped_fraction - quantile));
}

double AdaptiveClip::update(int unclipped, double expected, core::RngStream& rng) {
  if (!(expected > 0))
    throw std::logic_error(fmt::format("adaptive clipping: {} agents expected", expected));
  const double b_bar = (unclipped + count_noise_ * rng.normal()) / expected;
  const double next = next_clip_norm(clip_norm_, b_bar, quantile_, learning_rate_);
  // b_bar is finite, so exp() is finite and > 0 unless it under/overflows after many rounds of
  // an absurd learning rate; the release would then divide by a zero or infinite bound.
  if (!(std::isfinite(next) && next > 0))
    throw std::runtime_error(fmt::format(
        "adaptive clipping: the clip norm left the finite positive range ({} -> {}); lower "
        "server.clip_learning_rate",
        clip_norm_, next));
  clip_norm_ = next;
  return b_bar;
}

privacy::DpEvent AdaptiveClip::count_event(privacy::Sampling sampling, double sampling_rate,
                                           double count_noise, int population) {
  return privacy::sampled_gaussian(sampling, sampling_rate, count_noise, population);
}

}  // namespace fbosim::server
