// DpMechanism's releases under an asynchronous schedule (docs/TRUST.md, "Under the asynchronous
// schedules"; docs/TIME.md). The pool of a release, the agents with a message in it, is fixed by
// the time line alone (sim/run/schedule_plan.hpp); who is charged what is decided from it by
// run::release_charge, not here.
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/server/dp_mechanism.hpp"

namespace fbosim::server {

WeightedRelease DpMechanism::release_pool(const Messages& messages, const Eigen::MatrixXd& weights,
                                          const std::vector<bool>& pool,
                                          const std::vector<double>* scale,
                                          core::RngStream& rng) const {
  if (pool.size() != messages.size())
    throw std::invalid_argument(
        fmt::format("a pool of {} agents for {} messages", pool.size(), messages.size()));
  if (scale) check_scale(*scale, messages.size());
  switch (options_.trust.trust) {
    case Trust::central:
      return scale ? release_scaled(messages, weights, *scale, rng, options_.clip_norm)
                   : release(messages, weights, rng);
    case Trust::distributed:
      return distributed_release(messages, weights, rng, options_.clip_norm, &pool, scale);
    case Trust::local:
      return local_pool_release(messages, weights, pool, scale, rng);
  }
  throw std::logic_error("DpMechanism::release_pool: unknown trust model");
}

// Local DP on the clock: the sender privatises each message once, when it sends it (after its
// evaluation), so the server, and anyone after it, only ever post-processes it: a message of
// `latest` released again, or one discarded, costs nothing more than its sending.
Eigen::VectorXd DpMechanism::local_message(const Eigen::VectorXd& omega, int regions,
                                           core::RngStream& rng) const {
  if (options_.trust.trust != Trust::local)
    throw std::logic_error("DpMechanism::local_message: only under server.trust: local");
  if (omega.size() != features_)
    throw std::invalid_argument(
        fmt::format("a message of {} features, expected {}", omega.size(), features_));
  const double bound = clip_bound(options_.clip_norm, regions);
  const double sd = options_.trust.local_z * 2 * bound;
  // The secret coin first (local_coin.hpp): the vector, or zeros, always sent.
  const bool vector = !options_.trust.local_coin || rng.bernoulli(options_.sampling_rate);
  Eigen::VectorXd out = Eigen::VectorXd::Zero(features_);
  if (vector) {
    out = omega;
    clip(out, bound);
  }
  for (Eigen::Index k = 0; k < features_; ++k) out[k] += sd * rng.normal();
  return out;
}

// The server weights and sums the privatised messages of the pool: without the coin only those
// its own selection picks (as under rounds, where only the selected send; here every message
// was sent, so an unselected one is charged and unused: server.sampling_rate 1 uses them all),
// with the coin every one (it cannot tell which carry a vector). Each term is divided by g as
// the central sum; nothing is added: the noise is in the messages.
WeightedRelease DpMechanism::local_pool_release(const Messages& messages,
                                                const Eigen::MatrixXd& weights,
                                                const std::vector<bool>& pool,
                                                const std::vector<double>* scale,
                                                core::RngStream& rng) const {
  const std::size_t population = messages.size();
  const auto regions = static_cast<int>(weights.rows());
  check_weights(weights, population);
  const double g = sampling_fraction(population);
  const bool coin = options_.trust.local_coin;
  WeightedRelease out;
  out.charges.emplace();  // charged per message sent (run::release_charge), not per release
  const std::vector<bool> chosen = select(population, rng);
  out.omegas.assign(static_cast<std::size_t>(regions), Eigen::VectorXd::Zero(features_));
  int summed = 0;
  for (std::size_t n = 0; n < population; ++n) {
    if (!messages[n] || !pool[n]) continue;
    ++out.stats.received;
    if (!coin && !chosen[n]) continue;
    if (messages[n]->size() != features_)
      throw std::invalid_argument(
          fmt::format("agent {} sent {} features, expected {}", n, messages[n]->size(), features_));
    const auto col = static_cast<Eigen::Index>(n);
    const double s = scale ? (*scale)[n] : 1.0;
    for (int i = 0; i < regions; ++i)
      out.omegas[static_cast<std::size_t>(i)] += weights(i, col) * s * *messages[n] / g;
    ++summed;
  }
  out.stats.selected = summed;
  if (summed == 0) {  // nothing to sum: no broadcast (no noise, no data)
    out.omegas.clear();
    return out;
  }
  for (std::size_t i = 0; i < out.omegas.size(); ++i)
    if (!out.omegas[i].allFinite())
      throw std::logic_error(
          fmt::format("the noisy vector of sub-region {} is not finite; nothing is released", i));
  out.stats.noise_std = options_.trust.local_z * 2 * clip_bound(options_.clip_norm, regions);
  out.event = event(options_, population);
  return out;
}

}  // namespace fbosim::server
