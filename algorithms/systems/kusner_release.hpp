#pragma once
// Kusner, Gardner, Garnett & Weinberger, "Differentially Private Bayesian Optimization" (ICML
// 2015), Algorithms 1 and 2, as DpBoSystem's final release:
//   the best hyperparameter, by the exponential mechanism over the posterior mean mu_T with
//     sensitivity c (Thm. 1) [R-proof];
//   the best validation score max_t y_t + Laplace(s / epsilon) with s = c' (noisy
//     observations, Thm. 3) [R-proof] or Delta_5 (noise-free observations, Thm. 5: de
//     Freitas et al.'s constants A, tau must be given) [R];
// each an (epsilon, delta) event: the mechanisms are pure epsilon-DP given the sensitivity,
// which holds with probability 1 - delta under the GP prior (the paper's Corollaries 1-3).
#include <memory>
#include <optional>
#include <vector>

#include "algorithms/systems/dp_bo_release.hpp"

namespace fbosim::systems {

class KusnerRelease final : public DpBoRelease {
 public:
  /// Throws std::invalid_argument where a sensitivity cannot be computed (noisy observations
  /// without noise; the noise-free value without de Freitas et al.'s constants).
  explicit KusnerRelease(const DpBoConfig& config);

  /// An (epsilon, delta) event per released quantity (hyperparameter, then value).
  std::vector<privacy::DpEvent> agent_events() const override;
  /// Streams: "release"(a, 0) for the hyperparameter, (a, 1) for the value.
  void release(const TunedAgent& agent, const protocol::ReleaseInputs& in,
               protocol::FinalRelease& out) const override;
  std::vector<std::unique_ptr<const protocol::AuditableRelease>> auditable(
      const TunedAgent& agent, double noise_scale) const override;

 private:
  void release_hyperparameter(const TunedAgent& agent, const protocol::ReleaseInputs& in,
                              protocol::FinalRelease& out) const;
  void release_value(const TunedAgent& agent, const protocol::ReleaseInputs& in,
                     protocol::FinalRelease& out) const;
  /// c' (Thm. 3) or Delta_5 (Thm. 5) for a tuner of T observations on Lambda.
  double value_sensitivity(const TunedAgent& agent) const;

  double epsilon_, delta_;
  bool hyperparameter_, value_;
  bool noisy_, greedy_gamma_;
  double sigma1_;       ///< from release.neighbour_kernel
  double noise_var_;    ///< the model's (0 for noise-free observations)
  double lengthscale_;  ///< the model's
  std::optional<double> de_freitas_a_, de_freitas_tau_;
};

}  // namespace fbosim::systems
