#pragma once
// The server's per-round pipeline behind one small interface (house rule 5): a Mechanism turns
// the round's messages and the DE weights into a Release.
#include <Eigen/Core>

#include "algorithms/server/broadcast.hpp"
#include "sim/core/rng.hpp"

namespace fbosim::server {

class Mechanism {
 public:
  virtual ~Mechanism() = default;
  /// messages: N entries (null = missing); weights: P x N, row i = w^(i) over agents.
  virtual Release release(const Messages& messages, const Eigen::MatrixXd& weights,
                          core::RngStream& rng) const = 0;
};

/// sum_n w_n^(i) omega_n over the given messages, for every sub-region i (Algo. 1 line 9
/// without the 1/q). Null messages contribute nothing. Returns P vectors of size M.
std::vector<Eigen::VectorXd> weighted_sums(const Messages& messages, const Eigen::MatrixXd& weights,
                                           int features);

}  // namespace fbosim::server
