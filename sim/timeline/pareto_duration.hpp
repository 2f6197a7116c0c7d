#pragma once
// Pareto (type I) seconds: scale U^(-1 / shape) with U ~ U(0, 1], at least `scale`. Mean
// shape scale / (shape - 1), finite only for shape > 1 (required); variance scale^2 shape /
// ((shape - 1)^2 (shape - 2)), infinite for shape <= 2. Kandasamy et al. (AISTATS 2018) sec.
// 5's heavy-tailed time model.
#include "sim/timeline/duration_model.hpp"

namespace fbosim::timeline {

class ParetoDuration final : public DurationModel {
 public:
  /// timing.duration.scale (the minimum, seconds), timing.duration.shape > 1.
  ParetoDuration(double scale, double shape);
  double draw(core::RngStream& rng) const override;
  double mean() const override { return shape_ * scale_ / (shape_ - 1.0); }
  double variance() const override;

 private:
  double scale_, shape_;
};

}  // namespace fbosim::timeline
