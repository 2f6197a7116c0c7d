#pragma once
// The distributed-exploration aggregation of FTS-DE (Dai, Low & Jaillet 2021, Algo. 1 line 10
// without the privacy steps): omega^(i) = sum_n w_n^(i) omega_n, one vector per sub-region, with
// the DE weights of the round (de::WeightSchedule) for the sub-region each agent explores.
#include <vector>

#include "algorithms/de/weight_schedule.hpp"
#include "algorithms/protocol/mechanism.hpp"

namespace fbosim::server {

class RegionAggregator final : public protocol::LinearAggregator {
 public:
  /// agent_region[n]: the sub-region agent n explores, in [0, regions); features: M.
  RegionAggregator(de::WeightSchedule schedule, std::vector<int> agent_region, int regions,
                   int features);
  /// The schedule's P x N weights of round t; throws std::invalid_argument unless population
  /// equals the number of agents given at construction.
  Eigen::MatrixXd weights(int round, int population) const override;
  int features() const override { return features_; }
  int regions() const override { return regions_; }

 private:
  de::WeightSchedule schedule_;
  std::vector<int> agent_region_;
  int regions_;
  int features_;
};

}  // namespace fbosim::server
