#pragma once
// Every evaluation takes `mean` seconds (the synchronous papers' world when every agent is
// always online and in one tier). No draw.
#include "sim/timeline/duration_model.hpp"

namespace fbosim::timeline {

class ConstantDuration final : public DurationModel {
 public:
  explicit ConstantDuration(double mean);  ///< timing.duration.mean, seconds
  double draw(core::RngStream&) const override { return mean_; }
  double mean() const override { return mean_; }
  double variance() const override { return 0.0; }
  bool random() const override { return false; }

 private:
  double mean_;
};

}  // namespace fbosim::timeline
