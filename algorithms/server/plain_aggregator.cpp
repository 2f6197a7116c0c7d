#include "algorithms/server/plain_aggregator.hpp"

namespace fbosim::server {

Release PlainAggregator::release(const Messages& messages, const Eigen::MatrixXd& weights,
                                 core::RngStream& /*rng*/) const {
  Release out;
  Eigen::MatrixXd w = weights;
  for (std::size_t n = 0; n < messages.size(); ++n) {
    if (messages[n]) {
      ++out.stats.received;
    } else {
      w.col(static_cast<Eigen::Index>(n)).setZero();
    }
  }
  out.stats.selected = out.stats.received;
  if (out.stats.received == 0) return out;  // nothing to send: agents fall back to local TS
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    const double total = w.row(i).sum();
    if (total > 0) w.row(i) /= total;
  }
  out.broadcast.omegas = weighted_sums(messages, w, features_);
  return out;
}

}  // namespace fbosim::server
