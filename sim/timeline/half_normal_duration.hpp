#pragma once
// Half-normal |N(0, sigma^2)| seconds: sigma |Z|. Mean sigma sqrt(2 / pi), variance
// sigma^2 (1 - 2 / pi). Kandasamy et al. (AISTATS 2018) sec. 5's half-normal time model.
#include "sim/timeline/duration_model.hpp"

namespace fbosim::timeline {

class HalfNormalDuration final : public DurationModel {
 public:
  explicit HalfNormalDuration(double sigma);  ///< timing.duration.sigma, seconds
  double draw(core::RngStream& rng) const override;
  double mean() const override;
  double variance() const override;

 private:
  double sigma_;
};

}  // namespace fbosim::timeline
