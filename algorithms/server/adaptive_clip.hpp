#pragma once
// Adaptive clipping (Andrew, Thakkar, McMahan & Ramaswamy, "Differentially Private Learning
// with Adaptive Clipping", NeurIPS 2021, Algorithm 1 and its geometric update): the clip norm
// C_t follows a target quantile gamma of the messages' norms. Each selected agent contributes
// b_n = 1[||omega_n|| <= C_t / sqrt(P)] (the bound it was clipped to); the server releases
//   b_bar = (sum_n b_n + N(0, sigma_b^2)) / (g N)       (g N: the expected number selected)
// and sets C_{t+1} = C_t exp(-eta (b_bar - gamma)). More than a gamma share unclipped shrinks C,
// fewer grows it; the fixed point is the gamma-quantile of the norms (times sqrt(P)).
//
// Privacy [choice]: the count is a second Gaussian mechanism on the same subsampled agents
// (each agent changes sum_n b_n by at most 1: sensitivity 1, noise multiplier sigma_b). The
// ledger records it as its own subsampled-Gaussian event, composed with the messages' event
// each round (DpMechanism::event): Composed(sampled(q, Gaussian(z)), sampled(q,
// Gaussian(sigma_b))). This is sound under every accountant and both sampling schemes, because
// composition holds for any two mechanisms, whatever they share. Andrew et al.'s Theorem 1 is
// tighter: releasing both on the same batch is one Gaussian mechanism whose whitened sensitivity
// satisfies 1/z_eff^2 = 1/z^2 + 1/(2 sigma_b)^2 (their b_n - 1/2 has sensitivity 1/2), so the pair
// costs one subsampled Gaussian of z_eff. We do not use it: it needs the centred count, and
// composing the two events overstates the cost only slightly when sigma_b >> z (the count's Renyi
// divergence at q = 1 is alpha / (2 sigma_b^2), next to the messages' alpha / (2 z^2)).
#include "algorithms/privacy/dp_event.hpp"
#include "core/rng.hpp"

namespace fbosim::server {

class AdaptiveClip {
 public:
  /// Throws std::invalid_argument naming the key unless C > 0, 0 < gamma < 1, eta > 0 and
  /// sigma_b > 0 (all finite).
  AdaptiveClip(double clip_norm, double quantile, double learning_rate, double count_noise);

  /// C_t, the clip norm of the next release.
  double clip_norm() const { return clip_norm_; }
  /// Releases the noisy unclipped fraction b_bar of a round in which `unclipped` of the selected
  /// messages were within the bound and g N were expected to be selected (> 0), draws one
  /// N(0, 1) from rng, sets C_{t+1} and returns b_bar.
  double update(int unclipped, double expected, core::RngStream& rng);

  /// The geometric update C exp(-eta (b_bar - gamma)) (Andrew et al., Algorithm 1).
  static double next_clip_norm(double clip_norm, double unclipped_fraction, double quantile,
                               double learning_rate);
  /// The count's event: the subsampled Gaussian of sensitivity 1 and noise multiplier sigma_b.
  static privacy::DpEvent count_event(privacy::Sampling sampling, double sampling_rate,
                                      double count_noise, int population);

 private:
  double clip_norm_, quantile_, learning_rate_, count_noise_;
};

}  // namespace fbosim::server
