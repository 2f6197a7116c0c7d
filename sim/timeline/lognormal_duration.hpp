#pragma once
// Lognormal seconds given by its mean and the standard deviation sigma of its log: exp(mu +
// sigma Z) with mu = log(mean) - sigma^2 / 2, so that E = mean; variance mean^2 (exp(sigma^2)
// - 1). Parameterised by the mean so that models compare at equal mean.
#include "sim/timeline/duration_model.hpp"

namespace fbosim::timeline {

class LognormalDuration final : public DurationModel {
 public:
  /// timing.duration.mean (seconds), timing.duration.sigma in (0, 5] (of the log; above 5 the
  /// mean is carried by draws rarer than 1e-5).
  LognormalDuration(double mean, double sigma);
  double draw(core::RngStream& rng) const override;
  double mean() const override { return mean_; }
  double variance() const override;

  static constexpr double kMaxSigma = 5.0;

 private:
  double mean_, sigma_, mu_;
};

}  // namespace fbosim::timeline
