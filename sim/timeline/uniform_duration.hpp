#pragma once
// U(low, high) seconds: low + (high - low) U[0, 1). Mean (low + high) / 2, variance
// (high - low)^2 / 12. Kandasamy et al. (AISTATS 2018) sec. 5's uniform time model.
#include "sim/timeline/duration_model.hpp"

namespace fbosim::timeline {

class UniformDuration final : public DurationModel {
 public:
  UniformDuration(double low, double high);  ///< timing.duration.low < .high, seconds
  double draw(core::RngStream& rng) const override;
  double mean() const override { return 0.5 * (low_ + high_); }
  double variance() const override { return (high_ - low_) * (high_ - low_) / 12.0; }

 private:
  double low_, high_;
};

}  // namespace fbosim::timeline
