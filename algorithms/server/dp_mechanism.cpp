#include "algorithms/server/dp_mechanism.hpp"

#include <cmath>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::server {

DpMechanism::DpMechanism(Options options, int features) : options_(options), features_(features) {
  if (!(options_.sampling_rate > 0 && options_.sampling_rate <= 1))
    throw std::invalid_argument(
        fmt::format("server.sampling_rate must be in (0, 1], got {}", options_.sampling_rate));
  if (!(options_.noise_multiplier > 0))
    throw std::invalid_argument(
        fmt::format("server.noise_multiplier must be > 0, got {}", options_.noise_multiplier));
  if (!(options_.clip_norm > 0))
    throw std::invalid_argument(
        fmt::format("server.clip_norm must be > 0, got {}", options_.clip_norm));
}

double DpMechanism::clip_bound(double clip_norm, int regions) {
  return clip_norm / std::sqrt(static_cast<double>(regions));
}

bool DpMechanism::clip(Eigen::VectorXd& v, double bound) {
  const double norm = v.norm();
  if (norm <= bound) return false;
  v *= bound / norm;
  return true;
}

std::vector<bool> DpMechanism::select(std::size_t agents, core::RngStream& rng) const {
  std::vector<bool> chosen(agents, false);
  if (options_.sampling == privacy::Sampling::poisson) {
    for (std::size_t n = 0; n < agents; ++n) chosen[n] = rng.bernoulli(options_.sampling_rate);
    return chosen;
  }
  // Fixed size: a uniformly random subset of floor(N q) agents (partial Fisher-Yates).
  const auto batch = static_cast<std::size_t>(
      std::floor(static_cast<double>(agents) * options_.sampling_rate + 1e-9));
  std::vector<std::size_t> order(agents);
  std::iota(order.begin(), order.end(), std::size_t{0});
  for (std::size_t k = 0; k < batch && k < agents; ++k) {
    const std::size_t j = k + rng.uniform_int(agents - k);
    std::swap(order[k], order[j]);
    chosen[order[k]] = true;
  }
  return chosen;
}

Release DpMechanism::release(const Messages& messages, const Eigen::MatrixXd& weights,
                             core::RngStream& rng) const {
  const auto regions = static_cast<int>(weights.rows());
  const double q = options_.sampling_rate;
  const double bound = clip_bound(options_.clip_norm, regions);
  Release out;
  // The selection is drawn for every agent, present or not, so that who is selected does not
  // depend on who happened to arrive.
  const std::vector<bool> chosen = select(messages.size(), rng);
  std::vector<Eigen::VectorXd> clipped(messages.size());
  Messages used(messages.size(), nullptr);
  for (std::size_t n = 0; n < messages.size(); ++n) {
    if (!messages[n]) continue;
    ++out.stats.received;
    if (!chosen[n]) continue;
    clipped[n] = *messages[n];
    if (clip(clipped[n], bound)) ++out.stats.clipped;
    used[n] = &clipped[n];
    ++out.stats.selected;
  }
  out.broadcast.omegas = weighted_sums(used, weights, features_);
  const double global_w_max = weights.maxCoeff();
  for (int i = 0; i < regions; ++i) {
    const double w_max = options_.per_region_w_max ? weights.row(i).maxCoeff() : global_w_max;
    const double std = options_.noise_multiplier * w_max * options_.clip_norm / q;
    out.broadcast.omegas[i] /= q;
    for (Eigen::Index k = 0; k < features_; ++k) out.broadcast.omegas[i][k] += std * rng.normal();
    out.stats.noise_std = std::max(out.stats.noise_std, std);
  }
  out.event = privacy::DpEvent{q, options_.noise_multiplier, options_.sampling,
                               static_cast<int>(messages.size())};
  return out;
}

}  // namespace fbosim::server
