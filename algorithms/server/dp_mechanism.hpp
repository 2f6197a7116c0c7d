#pragma once
// The privatised server of DP-FTS-DE (Dai, Low, Jaillet 2021, Algo. 1 lines 5-13, Sec. 3.3):
//   1. subsample: each agent with probability q (Poisson) or exactly B = floor(N q) agents
//      without replacement (fixed-size, App. B.2.4 / Fig. 11, footnote 14);
//   2. clip every selected omega_n to L2 norm S / sqrt(P) (line 9);
//   3. omega^(i) = (1/g) sum_{n selected} w_n^(i) clip(omega_n) with g = q (line 10);
//   4. add N(0, (z w_max S / g)^2) to every coordinate of every omega^(i) (line 11).
// Sec. 3.3 divides by q N, "the expected number of agents selected, to make it unbiased"
// (footnote 11). [choice] With fixed-size sampling the number selected is exactly B, so
// g = B / N, which is q when N q is an integer (the paper's footnote 14 assumes it) and keeps
// the estimator unbiased when it is not; the noise scales with 1/g too, so z stays the ratio of
// the noise std to one agent's largest contribution w_max S / g and the accounting is unchanged.
// w_max is the largest weight over all (i, n) by default (the paper's, conservative) or per
// sub-region (the authors' code) [choice: `server.w_max`]; both bound every agent's whitened
// joint contribution by 1/z. An empty selection still releases the noise [choice]. Missing
// messages act as unselected agents: dropping out never increases an agent's privacy loss, so
// the accounting of the Poisson step stays valid. A message that is not finite is replaced by
// zero (counted as clipped): a NaN would otherwise pass through the noise and reveal that its
// sender was selected.
// Adaptive clipping (`server.clipping: adaptive`, adaptive_clip.hpp): S becomes C_t, updated each
// round from a noisy count; the noise std z w_max C_t / g follows it, so z keeps its meaning,
// and the event composes the count's subsampled Gaussian with the messages'.
#include "algorithms/server/personal_privacy.hpp"
#include "algorithms/server/trust_model.hpp"
#include "algorithms/server/weighted_release.hpp"
#include "core/rng.hpp"
#include "schema/fwd.hpp"

namespace fbosim::server {

/// server.clipping: a fixed S, or Andrew et al.'s adaptive clip norm starting at S.
enum class Clipping { fixed, adaptive };
inline constexpr schema::EnumNames<Clipping> kClippingNames{{Clipping::fixed, "fixed"},
                                                            {Clipping::adaptive, "adaptive"}};

class DpMechanism {
 public:
  struct Options {
    double sampling_rate = 0.25;    ///< q in (0, 1]
    double noise_multiplier = 1.0;  ///< z > 0
    double clip_norm = 11.0;        ///< S > 0
    privacy::Sampling sampling = privacy::Sampling::poisson;
    bool per_region_w_max = false;        ///< false: max over all (i, n)
    Clipping clipping = Clipping::fixed;  ///< server.clipping
    double clip_quantile = 0.5;           ///< gamma in (0, 1) (adaptive only)
    double clip_learning_rate = 0.2;      ///< eta > 0 (adaptive only)
    double clip_count_noise = 5.0;        ///< sigma_b > 0 (adaptive only)
    TrustOptions trust;                   ///< server.trust and its keys (trust_model.hpp)
    /// personal.* resolved for the population (personal_privacy.hpp); empty rates: every agent
    /// at q and the sum divided by g, as the paper.
    PersonalPrivacy personal;
  };
  /// Throws std::invalid_argument unless 0 < q <= 1 and z, S are finite and > 0 (and, when
  /// adaptive, AdaptiveClip's checks pass).
  DpMechanism(Options options, int features);

  /// weights: P x N (N = messages.size()), finite and >= 0 with a positive entry in every row;
  /// throws std::invalid_argument otherwise. The release carries the sampled-Gaussian event
  /// (central), or the trust model's nominal event and its per-agent charges
  /// (dp_mechanism_trust.cpp).
  WeightedRelease release(const Messages& messages, const Eigen::MatrixXd& weights,
                          core::RngStream& rng) const;
  /// The same with clip norm `clip_norm` in place of S (adaptive clipping's C_t).
  WeightedRelease release(const Messages& messages, const Eigen::MatrixXd& weights,
                          core::RngStream& rng, double clip_norm) const;
  /// The central release with agent n's clipped message weighted by scale[n] in (0, 1] on top
  /// of `weights` (the asynchronous schedules' age weights, docs/TIME.md): the sums use
  /// W(i, n) scale[n], never renormalised; the noise std stays z w_max S / g with w_max of the
  /// unscaled W. Every contribution W(i, n) scale[n] |clip(omega_n)| <= w_max S / sqrt(P), so
  /// the release is the same subsampled Gaussian (its event unchanged). Throws
  /// std::invalid_argument for a scale of another length or outside (0, 1], std::logic_error
  /// under a trust model other than central.
  WeightedRelease release_scaled(const Messages& messages, const Eigen::MatrixXd& weights,
                                 const std::vector<double>& scale, core::RngStream& rng,
                                 double clip_norm) const;

  /// The release under an asynchronous schedule (dp_mechanism_pool.cpp; docs/TRUST.md, "Under
  /// the asynchronous schedules"): pool[n] (size N) whether agent n has a message in it by the
  /// time line, `scale` the age weights (in (0, 1]) or null. central: release() or
  /// release_scaled() (a missing message is an unselected agent). distributed: the secure sum
  /// over the pool: the selected pool agents (server sampling) or every pool agent (agent
  /// sampling) send their weighted copies plus shares set by that public count, a pool agent
  /// whose message is missing being a dropout. local: the messages were privatised by their
  /// senders (local_message); the server weights and sums those of the pool it selects
  /// (every one with server.local_coin) and adds nothing. The charges carried are the
  /// mechanism's own view, against the server; run::release_charge decides what is charged.
  WeightedRelease release_pool(const Messages& messages, const Eigen::MatrixXd& weights,
                               const std::vector<bool>& pool, const std::vector<double>* scale,
                               core::RngStream& rng) const;
  /// A message as its sender sends it under `local` on an asynchronous schedule, once per
  /// message: clipped to S / sqrt(regions) plus N(0, (z_local 2 S / sqrt(regions))^2) per
  /// entry; with server.local_coin the sender's secret coin (probability q, the first draw)
  /// replaces the vector by zeros when it says no. Every draw from `rng` (the sender's own
  /// stream). Throws std::logic_error under another trust model.
  Eigen::VectorXd local_message(const Eigen::VectorXd& omega, int regions,
                                core::RngStream& rng) const;

  /// g: q (Poisson) or floor(N q) / N (fixed-size) for a population of N agents, or q_ref with
  /// personal rates; the sums are divided by g. Throws std::invalid_argument when floor(N q) = 0.
  double sampling_fraction(std::size_t population) const;
  /// Per-coordinate noise std of each sub-region, z w_max S / g (w_max global or per region).
  std::vector<double> noise_stds(const Eigen::MatrixXd& weights, std::size_t population) const;
  /// The same with clip norm `clip_norm` in place of S.
  std::vector<double> noise_stds(const Eigen::MatrixXd& weights, std::size_t population,
                                 double clip_norm) const;

  /// The event one release of these options over `population` agents composes: the one place
  /// the mechanism's event is built (privacy::sampled_gaussian), also for config validation.
  /// Adaptive clipping: Composed(messages' event, AdaptiveClip::count_event). Another trust
  /// model: its nominal event, what an agent in the sum is charged without dropouts (rho = c =
  /// 0) and at most with padding: distributed Gaussian(z) (server sampling) or the subsampled
  /// Gaussian (agent sampling), local Gaussian(z_local), or with server.local_coin the coin's
  /// replace-one event (local_coin_event). With personal rates the subsampled events are at
  /// the largest q_n: a bound on every agent's charge.
  static privacy::DpEvent event(const Options& options, std::size_t population);
  /// Clip bound of one message: S / sqrt(P).
  static double clip_bound(double clip_norm, int regions);
  /// Scales v in place so that |v| <= bound (a non-finite v becomes 0); true if it changed.
  static bool clip(Eigen::VectorXd& v, double bound);

  /// The subsampling: each of `agents` with probability q (Poisson; q_n with personal rates) or
  /// floor(N q) of them uniformly (fixed); drawn for every agent, present or not.
  std::vector<bool> select(std::size_t agents, core::RngStream& rng) const;
  const Options& options() const { return options_; }
  /// With personal rates: `event`'s base charged to each of `agents` (every agent when null) at
  /// its own rate, the subsampled Gaussian (q_n, z), one charge per distinct rate.
  std::vector<protocol::AgentCharge> personal_charges(double z,
                                                      const std::vector<int>* agents) const;
  bool personal() const { return !options_.personal.rates.empty(); }
  /// Throws std::invalid_argument naming the key when the trust model's options are out of
  /// range or refused with the rest (adaptive clipping without a trusted server; fixed-size
  /// sampling by the agents' secret coins, distributed or local).
  static void check_trust(const Options& options);

 private:
  std::size_t batch(std::size_t agents) const;  ///< floor(N q), as the RDP accountant
  /// The trusted server's release: the noise calibrated to `weights`, the sums with
  /// `sum_weights` (equal to them, or smaller entry by entry: release_scaled).
  WeightedRelease central_release(const Messages& messages, const Eigen::MatrixXd& weights,
                                  const Eigen::MatrixXd& sum_weights, core::RngStream& rng,
                                  double clip_norm) const;
  void check_weights(const Eigen::MatrixXd& weights, std::size_t agents) const;
  /// server.trust: distributed (secure aggregation) and local (dp_mechanism_trust.cpp).
  /// pool: null under rounds (every selected agent is expected; a missing message is a
  /// dropout), else the asynchronous release's pool; scale: null or the age weights.
  WeightedRelease distributed_release(const Messages& messages, const Eigen::MatrixXd& weights,
                                      core::RngStream& rng, double clip_norm,
                                      const std::vector<bool>* pool = nullptr,
                                      const std::vector<double>* scale = nullptr) const;
  /// local under an asynchronous schedule: the senders' privatised messages weighted and summed.
  WeightedRelease local_pool_release(const Messages& messages, const Eigen::MatrixXd& weights,
                                     const std::vector<bool>& pool,
                                     const std::vector<double>* scale, core::RngStream& rng) const;
  /// Throws std::invalid_argument for age weights of another length or outside (0, 1].
  static void check_scale(const std::vector<double>& scale, std::size_t agents);
  WeightedRelease local_release(const Messages& messages, const Eigen::MatrixXd& weights,
                                core::RngStream& rng, double clip_norm) const;

  Options options_;
  int features_;
};

/// The mechanism's keys (server.sampling, server.sampling_rate, server.noise_multiplier,
/// server.clip_norm, server.w_max, server.clipping, server.clip_quantile,
/// server.clip_learning_rate, server.clip_count_noise).
const schema::Group<DpMechanism::Options>& mechanism_keys();

}  // namespace fbosim::server
