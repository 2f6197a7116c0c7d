#include "algorithms/server/dp_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/server/adaptive_clip.hpp"
#include "algorithms/server/gaussian_noise.hpp"
#include "algorithms/server/local_coin.hpp"

namespace fbosim::server {

DpMechanism::DpMechanism(Options options, int features) : options_(options), features_(features) {
  if (!(options_.sampling_rate > 0 && options_.sampling_rate <= 1))
    throw std::invalid_argument(
        fmt::format("server.sampling_rate must be in (0, 1], got {}", options_.sampling_rate));
  if (!(std::isfinite(options_.noise_multiplier) && options_.noise_multiplier > 0))
    throw std::invalid_argument(fmt::format(
        "server.noise_multiplier must be finite and > 0, got {}", options_.noise_multiplier));
  if (!(std::isfinite(options_.clip_norm) && options_.clip_norm > 0))
    throw std::invalid_argument(
        fmt::format("server.clip_norm must be finite and > 0, got {}", options_.clip_norm));
  if (options_.clipping == Clipping::adaptive)  // validates the adaptive keys
    AdaptiveClip(options_.clip_norm, options_.clip_quantile, options_.clip_learning_rate,
                 options_.clip_count_noise);
  check_trust(options_);
  if (features_ < 1)
    throw std::invalid_argument(fmt::format("rff.features must be >= 1, got {}", features_));
}

void DpMechanism::check_trust(const Options& options) {
  const TrustOptions& t = options.trust;
  if (t.trust == Trust::central) return;
  // Adaptive clipping's noisy count is computed by the server from the messages themselves:
  // without a trusted server it would need its own secure or local release.
  if (options.clipping == Clipping::adaptive)
    throw std::invalid_argument(fmt::format(
        "server.clipping: adaptive is refused with server.trust: {}: its noisy count of "
        "unclipped messages is computed by the server from the messages, which it does not see; "
        "use server.clipping: fixed",
        kTrustNames.name(t.trust)));
  if (t.trust == Trust::local) {
    if (!(std::isfinite(t.local_z) && t.local_z > 0))
      throw std::invalid_argument(
          fmt::format("server.local_z must be finite and > 0, got {}", t.local_z));
    if (t.local_coin && options.sampling != privacy::Sampling::poisson)
      throw std::invalid_argument(
          "server.local_coin: each agent draws its coin in secret, which is Poisson sampling; "
          "server.sampling: fixed needs the server to choose, got server.sampling: fixed");
    return;
  }
  ShareCalibration(t, 1);  // rho in [0, 1), c >= 0
  if (t.sampled_by == Sampler::agents && options.sampling != privacy::Sampling::poisson)
    throw std::invalid_argument(
        "server.sampled_by: agents draws each agent's coin in secret, which is Poisson "
        "sampling; server.sampling: fixed needs the server to choose, got server.sampling: "
        "fixed");
}

double DpMechanism::clip_bound(double clip_norm, int regions) {
  return clip_norm / std::sqrt(static_cast<double>(regions));
}

bool DpMechanism::clip(Eigen::VectorXd& v, double bound) {
  double norm = v.norm();
  if (!std::isfinite(norm)) norm = v.stableNorm();  // finite entries whose squares overflow
  if (!std::isfinite(norm)) {
    v.setZero();  // inf or NaN entries: no direction to keep, and a NaN must not pass
    return true;
  }
  if (norm <= bound) return false;
  v *= bound / norm;
  return true;
}

privacy::DpEvent DpMechanism::event(const Options& options, std::size_t population) {
  if (options.trust.trust == Trust::local)
    return options.trust.local_coin ? local_coin_event(options.sampling_rate, options.trust.local_z)
                                    : privacy::DpEvent::gaussian(options.trust.local_z);
  if (options.trust.trust == Trust::distributed && options.trust.sampled_by == Sampler::server)
    return privacy::DpEvent::gaussian(options.noise_multiplier);
  // Personal rates: the largest q_n bounds every agent's subsampled Gaussian.
  const double q =
      options.personal.rates.empty() ? options.sampling_rate : options.personal.max_rate();
  privacy::DpEvent messages = privacy::sampled_gaussian(
      options.sampling, q, options.noise_multiplier, static_cast<int>(population));
  if (options.clipping == Clipping::fixed) return messages;
  // Two releases on the same batch, composed (adaptive_clip.hpp says why not Theorem 1's z_eff).
  return privacy::DpEvent::composed(
      {std::move(messages),
       AdaptiveClip::count_event(options.sampling, options.sampling_rate, options.clip_count_noise,
                                 static_cast<int>(population))});
}

std::size_t DpMechanism::batch(std::size_t agents) const {
  // The same expression as the RDP accountant's floor(N q), so both see the same batch.
  return static_cast<std::size_t>(std::floor(static_cast<double>(agents) * options_.sampling_rate));
}

double DpMechanism::sampling_fraction(std::size_t population) const {
  // Personal rates: one public divisor for all, never q_n (personal_privacy.hpp).
  if (personal()) return options_.personal.q_ref;
  if (options_.sampling == privacy::Sampling::poisson) return options_.sampling_rate;
  const std::size_t b = batch(population);
  if (b == 0)
    throw std::invalid_argument(fmt::format(
        "fixed-size sampling selects floor(N q) = 0 agents (N = {}, server.sampling_rate = {})",
        population, options_.sampling_rate));
  return static_cast<double>(b) / static_cast<double>(population);
}

void DpMechanism::check_weights(const Eigen::MatrixXd& weights, std::size_t agents) const {
  if (weights.rows() < 1 || static_cast<std::size_t>(weights.cols()) != agents)
    throw std::invalid_argument(fmt::format("DE weights are {} x {}, expected P x {} (P >= 1)",
                                            weights.rows(), weights.cols(), agents));
  if (!weights.allFinite() || weights.minCoeff() < 0)
    throw std::invalid_argument(
        "DE weights must be finite and >= 0; the noise cannot be calibrated to them");
  for (Eigen::Index i = 0; i < weights.rows(); ++i)
    if (!(weights.row(i).maxCoeff() > 0))
      throw std::invalid_argument(fmt::format(
          "DE weights of sub-region {} are all 0; the noise std z w_max S / q would be 0", i));
}

std::vector<double> DpMechanism::noise_stds(const Eigen::MatrixXd& weights,
                                            std::size_t population) const {
  return noise_stds(weights, population, options_.clip_norm);
}

std::vector<double> DpMechanism::noise_stds(const Eigen::MatrixXd& weights, std::size_t population,
                                            double clip_norm) const {
  if (!(std::isfinite(clip_norm) && clip_norm > 0))
    throw std::logic_error(fmt::format("clip norm {} is not finite and > 0", clip_norm));
  check_weights(weights, population);
  const double g = sampling_fraction(population);
  const double global_w_max = weights.maxCoeff();
  std::vector<double> stds(static_cast<std::size_t>(weights.rows()));
  for (Eigen::Index i = 0; i < weights.rows(); ++i) {
    const double w_max = options_.per_region_w_max ? weights.row(i).maxCoeff() : global_w_max;
    stds[static_cast<std::size_t>(i)] = options_.noise_multiplier * w_max * clip_norm / g;
  }
  return stds;
}

std::vector<bool> DpMechanism::select(std::size_t agents, core::RngStream& rng) const {
  std::vector<bool> chosen(agents, false);
  if (personal()) {
    const std::vector<double>& rates = options_.personal.rates;
    if (rates.size() != agents)
      throw std::logic_error(
          fmt::format("personal rates of {} agents for a population of {}", rates.size(), agents));
    for (std::size_t n = 0; n < agents; ++n) chosen[n] = rng.bernoulli(rates[n]);
    return chosen;
  }
  if (options_.sampling == privacy::Sampling::poisson) {
    for (std::size_t n = 0; n < agents; ++n) chosen[n] = rng.bernoulli(options_.sampling_rate);
    return chosen;
  }
  // Fixed size: a uniformly random subset of floor(N q) agents (partial Fisher-Yates).
  const std::size_t b = batch(agents);
  std::vector<std::size_t> order(agents);
  std::iota(order.begin(), order.end(), std::size_t{0});
  for (std::size_t k = 0; k < b && k < agents; ++k) {
    const std::size_t j = k + rng.uniform_int(agents - k);
    std::swap(order[k], order[j]);
    chosen[order[k]] = true;
  }
  return chosen;
}

WeightedRelease DpMechanism::release(const Messages& messages, const Eigen::MatrixXd& weights,
                                     core::RngStream& rng) const {
  return release(messages, weights, rng, options_.clip_norm);
}

WeightedRelease DpMechanism::release(const Messages& messages, const Eigen::MatrixXd& weights,
                                     core::RngStream& rng, double clip_norm) const {
  if (options_.trust.trust == Trust::distributed)
    return distributed_release(messages, weights, rng, clip_norm);
  if (options_.trust.trust == Trust::local) return local_release(messages, weights, rng, clip_norm);
  return central_release(messages, weights, weights, rng, clip_norm);
}

WeightedRelease DpMechanism::release_scaled(const Messages& messages,
                                            const Eigen::MatrixXd& weights,
                                            const std::vector<double>& scale, core::RngStream& rng,
                                            double clip_norm) const {
  if (options_.trust.trust != Trust::central)
    throw std::logic_error("DpMechanism::release_scaled: only the trusted server weights messages");
  check_scale(scale, messages.size());
  check_weights(weights, messages.size());
  Eigen::MatrixXd sum_weights = weights;
  for (std::size_t n = 0; n < scale.size(); ++n)
    sum_weights.col(static_cast<Eigen::Index>(n)) *= scale[n];
  return central_release(messages, weights, sum_weights, rng, clip_norm);
}

void DpMechanism::check_scale(const std::vector<double>& scale, std::size_t agents) {
  if (scale.size() != agents)
    throw std::invalid_argument(
        fmt::format("{} message weights for {} agents", scale.size(), agents));
  for (std::size_t n = 0; n < scale.size(); ++n)
    // (0, 1]: no contribution grows beyond the unscaled weights' bound.
    if (!(scale[n] > 0 && scale[n] <= 1))
      throw std::invalid_argument(
          fmt::format("agent {}'s message weight must be in (0, 1], got {}", n, scale[n]));
}

WeightedRelease DpMechanism::central_release(const Messages& messages,
                                             const Eigen::MatrixXd& weights,
                                             const Eigen::MatrixXd& sum_weights,
                                             core::RngStream& rng, double clip_norm) const {
  const auto regions = static_cast<int>(weights.rows());
  // Validates the weights and the clip norm.
  const std::vector<double> stds = noise_stds(weights, messages.size(), clip_norm);
  const double g = sampling_fraction(messages.size());
  const double bound = clip_bound(clip_norm, regions);
  WeightedRelease out;
  // The selection is drawn for every agent, present or not, so that who is selected does not
  // depend on who happened to arrive.
  const std::vector<bool> chosen = select(messages.size(), rng);
  std::vector<Eigen::VectorXd> clipped(messages.size());
  Messages used(messages.size(), nullptr);
  for (std::size_t n = 0; n < messages.size(); ++n) {
    if (!messages[n]) continue;
    ++out.stats.received;
    if (!chosen[n]) continue;
    if (messages[n]->size() != features_)
      throw std::invalid_argument(
          fmt::format("agent {} sent {} features, expected {}", n, messages[n]->size(), features_));
    clipped[n] = *messages[n];
    if (clip(clipped[n], bound)) ++out.stats.clipped;
    used[n] = &clipped[n];
    ++out.stats.selected;
  }
  out.omegas = weighted_sums(used, sum_weights, features_);
  for (auto& omega : out.omegas) omega /= g;
  add_gaussian_noise(out, stds, event(options_, messages.size()), rng);
  if (personal()) {
    // Every agent's own subsampled Gaussian (q_n, z), against anyone who sees the broadcast.
    out.charges.emplace();
    out.charges->server = personal_charges(options_.noise_multiplier, nullptr);
    out.charges->broadcast = out.charges->server;
  }
  return out;
}

std::vector<protocol::AgentCharge> DpMechanism::personal_charges(
    double z, const std::vector<int>* agents) const {
  const std::vector<double>& rates = options_.personal.rates;
  const auto population = static_cast<int>(rates.size());
  std::vector<protocol::AgentCharge> out;
  std::vector<double> seen;  // one charge per distinct rate, in order of first appearance
  const auto add = [&](int n) {
    const double q = rates[static_cast<std::size_t>(n)];
    const auto it = std::find(seen.begin(), seen.end(), q);
    if (it == seen.end()) {
      seen.push_back(q);
      out.push_back(
          {privacy::sampled_gaussian(privacy::Sampling::poisson, q, z, population), {n}, false});
    } else {
      out[static_cast<std::size_t>(it - seen.begin())].agents.push_back(n);
    }
  };
  if (agents) {
    for (const int n : *agents) add(n);
  } else {
    for (int n = 0; n < population; ++n) add(n);
  }
  return out;
}

}  // namespace fbosim::server
