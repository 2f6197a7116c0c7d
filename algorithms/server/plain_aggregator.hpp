#pragma once
// FTS / FTS-DE server without privacy (spec section 3, last line): omega^(i) = sum_n w_n^(i)
// omega_n. [choice] When some messages are missing (dropouts, stragglers) each region's weights
// are renormalised over the agents that arrived, so the broadcast stays a weighted average;
// with every agent present this is exactly the paper's formula.
#include "algorithms/server/mechanism.hpp"

namespace fbosim::server {

class PlainAggregator final : public Mechanism {
 public:
  explicit PlainAggregator(int features) : features_(features) {}
  Release release(const Messages& messages, const Eigen::MatrixXd& weights,
                  core::RngStream& rng) const override;

 private:
  int features_;
};

}  // namespace fbosim::server
