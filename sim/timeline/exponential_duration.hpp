#pragma once
// Exponential seconds with the given mean: mean Exp(1), by inversion. Variance mean^2.
// Kandasamy et al. (AISTATS 2018) sec. 5's exponential time model.
#include "sim/timeline/duration_model.hpp"

namespace fbosim::timeline {

class ExponentialDuration final : public DurationModel {
 public:
  explicit ExponentialDuration(double mean);  ///< timing.duration.mean, seconds
  double draw(core::RngStream& rng) const override;
  double mean() const override { return mean_; }
  double variance() const override { return mean_ * mean_; }

 private:
  double mean_;
};

}  // namespace fbosim::timeline
