// DpMechanism's releases without a trusted server (server.trust; trust_model.hpp, issue 42).
// Both draw the selection first, as the central release does, then every random share or
// local noise from the same stream in agent order, so a run replays from its seed.
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/server/dp_mechanism.hpp"

namespace fbosim::server {

namespace {

void check_features(const Eigen::VectorXd& message, std::size_t agent, int features) {
  if (message.size() != features)
    throw std::invalid_argument(
        fmt::format("agent {} sent {} features, expected {}", agent, message.size(), features));
}

void check_finite(const std::vector<Eigen::VectorXd>& omegas) {
  for (std::size_t i = 0; i < omegas.size(); ++i)
    if (!omegas[i].allFinite())
      throw std::logic_error(
          fmt::format("the noisy vector of sub-region {} is not finite; nothing is released", i));
}

}  // namespace

// Secure aggregation (Bonawitz et al., CCS 2017, as the distributed DP of Kairouz, Liu &
// Steinke, ICML 2021): agent n in the sum sends, for every sub-region i, w_n^(i) clip(omega_n)
// / g plus its own share of N(0, factor x sigma_i^2) on every entry (a zero vector and the
// share when it is not selected under agent-side sampling); the server learns only the sum of
// the survivors' messages. DE's weights are public (the sub-region, N, a, t, q), so the sum is
// the central weighted sum with the summed shares as its noise.
// Under an asynchronous schedule (`pool` given) the sum is over the release's pool, the agents
// with a message in it by the time line: an agent outside it has nothing to send and is no
// dropout, so the shares are set by the public count of pool agents in the sum (docs/TRUST.md).
WeightedRelease DpMechanism::distributed_release(const Messages& messages,
                                                 const Eigen::MatrixXd& weights,
                                                 core::RngStream& rng, double clip_norm,
                                                 const std::vector<bool>* pool,
                                                 const std::vector<double>* scale) const {
  const TrustOptions& trust = options_.trust;
  const std::size_t population = messages.size();
  const auto regions = static_cast<int>(weights.rows());
  const std::vector<double> sigmas = noise_stds(weights, population, clip_norm);
  const double g = sampling_fraction(population);
  const double bound = clip_bound(clip_norm, regions);
  const bool by_agents = trust.sampled_by == Sampler::agents;
  WeightedRelease out;
  out.charges.emplace();
  // The server's selection, or the agents' secret coins (every agent then joins the sum).
  const std::vector<bool> chosen = select(population, rng);
  int m = 0, survivors = 0;
  bool all_arrived = true;
  std::vector<int> summed;
  for (std::size_t n = 0; n < population; ++n) {
    const bool in_pool = !pool || (*pool)[n];
    const bool in_sum = in_pool && (by_agents || chosen[n]);
    if (in_sum) ++m;
    if (!messages[n]) {
      if (in_pool) all_arrived = false;
      continue;
    }
    ++out.stats.received;
    if (!in_sum) continue;
    ++survivors;
    summed.push_back(static_cast<int>(n));
  }
  // The central noise of a sum without dropouts (m shares of sigma^2 / ((1 - rho) m)), as
  // multiplier: what a broadcast observer sees whoever was selected (without colluders).
  const double z_full = options_.noise_multiplier / std::sqrt(1 - trust.dropout_padding);
  const bool same_for_all = all_arrived && trust.colluders == 0;
  // The central subsampled accounting for every agent (each at its own q_n with personal rates).
  const auto broadcast_charges = [&](double z) -> std::vector<protocol::AgentCharge> {
    if (personal()) return personal_charges(z, nullptr);
    return {{privacy::sampled_gaussian(options_.sampling, options_.sampling_rate, z,
                                       static_cast<int>(population)),
             {},
             true}};
  };
  if (m == 0) {
    // Nobody selected: no share to sum. The server, which learns nothing from an empty sum,
    // releases the noise of a full sum itself, as the central release does: aborting would tell
    // the broadcast observers that nobody was selected, which the subsampled accounting
    // (a Gaussian on every subsample, the empty one included) does not allow.
    out.omegas.assign(static_cast<std::size_t>(regions), Eigen::VectorXd::Zero(features_));
    double largest = 0;
    for (int i = 0; i < regions; ++i) {
      const double sd = sigmas[static_cast<std::size_t>(i)] / std::sqrt(1 - trust.dropout_padding);
      largest = std::max(largest, sd);
      for (Eigen::Index k = 0; k < features_; ++k)
        out.omegas[static_cast<std::size_t>(i)][k] = sd * rng.normal();
    }
    out.stats.noise_std = largest;
    if (same_for_all) out.charges->broadcast = broadcast_charges(z_full);
    out.event = event(options_, population);
    return out;
  }
  // Fewer survivors than the shares were padded for (or no more than the colluders): aborted,
  // nothing broadcast and nobody charged (a sum without its honest noise must never go out).
  const ShareCalibration shares(trust, m);
  if (!shares.releases(survivors)) return out;
  std::vector<double> share_stds(sigmas.size());
  for (std::size_t i = 0; i < sigmas.size(); ++i)
    share_stds[i] = sigmas[i] * std::sqrt(shares.factor());
  out.omegas.assign(static_cast<std::size_t>(regions), Eigen::VectorXd::Zero(features_));
  Eigen::VectorXd clipped, copy;
  for (const int agent : summed) {
    const auto n = static_cast<std::size_t>(agent);
    check_features(*messages[n], n, features_);
    const bool contributes = chosen[n];  // a zero vector otherwise (agent-side sampling)
    if (contributes) {
      clipped = *messages[n];
      if (clip(clipped, bound)) ++out.stats.clipped;
      ++out.stats.selected;
    }
    for (int i = 0; i < regions; ++i) {
      const double w = scale ? weights(i, agent) * (*scale)[n] : weights(i, agent);
      copy = contributes ? Eigen::VectorXd(w * clipped / g) : Eigen::VectorXd::Zero(features_);
      for (Eigen::Index k = 0; k < features_; ++k)
        copy[k] += share_stds[static_cast<std::size_t>(i)] * rng.normal();
      out.omegas[static_cast<std::size_t>(i)] += copy;
    }
  }
  check_finite(out.omegas);
  // The adversary does not know the shares of the survivors beyond the c colluders: the
  // release is a Gaussian of that noise (sensitivity w_max S / g: one agent's vector zeroed).
  const double z_eff = shares.effective_z(options_.noise_multiplier, survivors);
  double largest = 0;
  for (const double s : sigmas) largest = std::max(largest, s);
  out.stats.noise_std = largest * std::sqrt(survivors * shares.factor());
  if (by_agents) {
    // The coins are secret and everyone is in the sum: the subsampled accounting holds against
    // the server, for every agent whose share was summed.
    if (personal()) {  // each at its own q_n
      out.charges->server = personal_charges(z_eff, &summed);
    } else {
      out.charges->server.push_back(
          {privacy::sampled_gaussian(privacy::Sampling::poisson, options_.sampling_rate, z_eff,
                                     static_cast<int>(population)),
           summed, false});
    }
    out.charges->broadcast = out.charges->server;
  } else {
    // The server knows who is in the sum: no amplification against it.
    out.charges->server.push_back({privacy::DpEvent::gaussian(z_eff), summed, false});
    // An observer of the broadcasts only, who does not see the selection: where the noise is
    // the same whoever was selected (no dropout this round, no colluders: m shares of sigma^2 /
    // ((1 - rho) m), also m = 0 above), the central release's subsampled accounting holds with
    // the base mechanism a Gaussian of z / sqrt(1 - rho) on every subsample; otherwise its
    // view is a function of the server's, and every agent is charged the summed agents'
    // Gaussian.
    if (same_for_all) {
      out.charges->broadcast = broadcast_charges(z_full);
    } else {
      out.charges->broadcast.push_back({privacy::DpEvent::gaussian(z_eff), {}, true});
    }
  }
  out.event = event(options_, population);
  return out;
}

// Local DP (e.g. Kasiviswanathan et al. 2011's model): each selected agent clips its vector to
// S / sqrt(P) and adds N(0, (z_local 2 S / sqrt(P))^2) to every entry before sending; the
// server only weights and sums what arrives. Every message sent is a Gaussian release of
// multiplier z_local about its sender, charged whether it arrives in time or not.
// With server.local_coin the selection is each agent's secret coin and every agent sends: the
// noise alone when its coin says no (local_coin.hpp), each message charged as the coin's event.
WeightedRelease DpMechanism::local_release(const Messages& messages, const Eigen::MatrixXd& weights,
                                           core::RngStream& rng, double clip_norm) const {
  const std::size_t population = messages.size();
  const auto regions = static_cast<int>(weights.rows());
  check_weights(weights, population);
  const double g = sampling_fraction(population);
  const double bound = clip_bound(clip_norm, regions);
  const double sd = options_.trust.local_z * 2 * bound;
  const bool coin = options_.trust.local_coin;
  WeightedRelease out;
  out.charges.emplace();
  // The server's selection, or the agents' secret coins (every agent then sends).
  const std::vector<bool> chosen = select(population, rng);
  std::vector<int> sent;
  out.omegas.assign(static_cast<std::size_t>(regions), Eigen::VectorXd::Zero(features_));
  Eigen::VectorXd noisy;
  int arrived = 0;
  for (std::size_t n = 0; n < population; ++n) {
    if (messages[n]) ++out.stats.received;
    if (!chosen[n] && !coin) continue;
    sent.push_back(static_cast<int>(n));
    if (!messages[n]) continue;  // sent, lost or late: charged all the same
    check_features(*messages[n], n, features_);
    if (chosen[n]) {
      noisy = *messages[n];
      if (clip(noisy, bound)) ++out.stats.clipped;
      ++out.stats.selected;
    } else {
      noisy = Eigen::VectorXd::Zero(features_);  // the coin said no: the noise alone
    }
    for (Eigen::Index k = 0; k < features_; ++k) noisy[k] += sd * rng.normal();
    for (int i = 0; i < regions; ++i)
      out.omegas[static_cast<std::size_t>(i)] +=
          weights(i, static_cast<Eigen::Index>(n)) * noisy / g;
    ++arrived;
  }
  const privacy::DpEvent e = event(options_, population);
  out.charges->server.push_back({e, sent, false});
  out.charges->broadcast.push_back({e, sent, false});
  if (arrived == 0) {  // nothing arrived: no broadcast (no noise, no data)
    out.omegas.clear();
    return out;
  }
  check_finite(out.omegas);
  out.stats.noise_std = sd;
  out.event = e;
  return out;
}

}  // namespace fbosim::server
