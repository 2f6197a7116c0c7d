#include "algorithms/server/region_aggregator.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::server {

RegionAggregator::RegionAggregator(de::WeightSchedule schedule, std::vector<int> agent_region,
                                   int regions, int features)
    : schedule_(std::move(schedule)),
      agent_region_(std::move(agent_region)),
      regions_(regions),
      features_(features) {}

Eigen::MatrixXd RegionAggregator::weights(int round, int population) const {
  if (population != static_cast<int>(agent_region_.size()))
    throw std::invalid_argument(fmt::format("DE weights for {} agents asked of an aggregator of {}",
                                            population, agent_region_.size()));
  return schedule_.weights(round, agent_region_, regions_);
}

}  // namespace fbosim::server
