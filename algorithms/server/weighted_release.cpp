#include "algorithms/server/weighted_release.hpp"

namespace fbosim::server {

std::vector<Eigen::VectorXd> weighted_sums(const Messages& messages, const Eigen::MatrixXd& weights,
                                           int features) {
  const Eigen::Index regions = weights.rows();
  std::vector<Eigen::VectorXd> out(regions, Eigen::VectorXd::Zero(features));
  for (std::size_t n = 0; n < messages.size(); ++n) {
    if (!messages[n]) continue;
    for (Eigen::Index i = 0; i < regions; ++i) out[i] += weights(i, n) * *messages[n];
  }
  return out;
}

}  // namespace fbosim::server
