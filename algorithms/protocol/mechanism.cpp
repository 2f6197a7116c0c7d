#include "algorithms/protocol/mechanism.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::protocol {

std::string to_string(StatColumn column) {
  switch (column) {
    case StatColumn::received:
      return "received";
    case StatColumn::selected:
      return "selected";
    case StatColumn::clipped:
      return "clipped";
    case StatColumn::noise_std:
      return "noise_std";
    case StatColumn::floats:
      return "floats";
    case StatColumn::floats_per_message:
      return "floats_per_message";
    case StatColumn::aggregating:
      return "aggregating";
    case StatColumn::clip_norm:
      return "clip_norm";
  }
  return "?";
}

std::string format_stat(StatColumn column, const RoundStats& s) {
  switch (column) {
    case StatColumn::received:
      return fmt::format("{}", s.received);
    case StatColumn::selected:
      return fmt::format("{}", s.selected);
    case StatColumn::clipped:
      return fmt::format("{}", s.clipped);
    case StatColumn::noise_std:
      return fmt::format("{}", s.noise_std);
    case StatColumn::floats:
      return fmt::format("{}", s.floats);
    case StatColumn::floats_per_message:
      return fmt::format("{}", s.floats_per_message);
    case StatColumn::aggregating:
      return s.aggregating ? "1" : "0";
    case StatColumn::clip_norm:  // empty where the server stopped: no bound was used
      return s.aggregating ? fmt::format("{}", s.clip_norm) : "";
  }
  return "";
}

const Eigen::VectorXd& sample_of(const Message& message, int agent, int features) {
  const auto* s = std::get_if<RffSample>(&message);
  if (!s)
    throw std::invalid_argument(fmt::format(
        "agent {} sent a posterior summary where an M-vector sample was expected", agent));
  if (s->omega.size() != features)
    throw std::invalid_argument(
        fmt::format("agent {} sent {} features, expected {}", agent, s->omega.size(), features));
  return s->omega;
}

Broadcast LinearAggregator::aggregate(const Inbox& messages, int round, RoundStats& stats) const {
  return weighted_average(messages, weights(round, static_cast<int>(messages.size())), stats);
}

Broadcast LinearAggregator::aggregate_scaled(const Inbox& messages, int round, RoundStats& stats,
                                             const std::vector<double>& scale) const {
  if (scale.size() != messages.size())
    throw std::invalid_argument(
        fmt::format("{} message weights for {} agents", scale.size(), messages.size()));
  Eigen::MatrixXd w = weights(round, static_cast<int>(messages.size()));
  for (std::size_t n = 0; n < scale.size(); ++n) {
    if (!(scale[n] > 0 && scale[n] <= 1))
      throw std::invalid_argument(
          fmt::format("agent {}'s message weight must be in (0, 1], got {}", n, scale[n]));
    w.col(static_cast<Eigen::Index>(n)) *= scale[n];
  }
  return weighted_average(messages, std::move(w), stats);
}

Broadcast LinearAggregator::weighted_average(const Inbox& messages, Eigen::MatrixXd w,
                                             RoundStats& stats) const {
  const auto population = static_cast<int>(messages.size());
  for (int n = 0; n < population; ++n) {
    if (messages[static_cast<std::size_t>(n)]) {
      ++stats.received;
    } else {
      w.col(n).setZero();
    }
  }
  stats.selected = stats.received;
  if (stats.received == 0) return NoBroadcast{};
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    const double total = w.row(i).sum();
    if (total > 0) w.row(i) /= total;
  }
  RegionSamples out;
  out.omegas.assign(static_cast<std::size_t>(w.rows()), Eigen::VectorXd::Zero(features()));
  for (int n = 0; n < population; ++n) {
    const auto& m = messages[static_cast<std::size_t>(n)];
    if (!m) continue;
    const Eigen::VectorXd& omega = sample_of(*m, n, features());
    for (Eigen::Index i = 0; i < w.rows(); ++i)
      out.omegas[static_cast<std::size_t>(i)] += w(i, n) * omega;
  }
  return out;
}

Release Mechanism::release_scaled(const Inbox& /*messages*/, int /*round*/,
                                  core::RngStream& /*rng*/,
                                  const std::vector<double>& /*scale*/) const {
  throw std::logic_error("this server does not weight its messages (age weights)");
}

int LinearAggregator::regions() const { return static_cast<int>(weights(0, 1).rows()); }

Release Mechanism::release_pool(const Inbox& messages, int round, core::RngStream& rng,
                                const std::vector<bool>& /*pool*/,
                                const std::vector<double>* scale) const {
  return scale ? release_scaled(messages, round, rng, *scale) : release(messages, round, rng);
}

std::shared_ptr<const Message> Mechanism::send(std::shared_ptr<const Message> message,
                                               const core::RngFactory& /*streams*/, int /*agent*/,
                                               int /*evaluation*/) const {
  return message;
}

}  // namespace fbosim::protocol
