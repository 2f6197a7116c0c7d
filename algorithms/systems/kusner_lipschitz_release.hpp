#pragma once
// Kusner, Gardner, Garnett & Weinberger, "Differentially Private Bayesian Optimization" (ICML
// 2015), Algorithm 3 (sec. 5: "Private Bayesian Opt. (Lipschitz and convex)"), as DpBoSystem's
// final release: without the GP assumption, when the objective certifies their Assumption 2 (a
// validation score averaging an L-Lipschitz loss of a model trained by L2-regularised convex
// ERM on public data; core/convex_lipschitz_score.hpp), the best validation score max_t y_t is
// released as max_t y_t + Laplace(Delta / epsilon), Delta the total global sensitivity of
// Theorem 7 (algorithms/release/convex_lipschitz_sensitivity.hpp [reconstructed]). The bound
// holds whatever hyperparameters the BO evaluated, so any acquisition function may choose them
// (here GP-UCB's); it is deterministic, so the release is pure epsilon-DP: an (epsilon, 0)
// event. Only the value is released (the paper's Algorithm 3 releases no hyperparameter).
#include <memory>
#include <vector>

#include "algorithms/systems/dp_bo_release.hpp"

namespace fbosim::systems {

class KusnerLipschitzRelease final : public DpBoRelease {
 public:
  /// Throws std::invalid_argument when asked to release the hyperparameter or nothing.
  explicit KusnerLipschitzRelease(const DpBoConfig& config);

  /// One (epsilon, 0) event: the Laplace release of the best value.
  std::vector<privacy::DpEvent> agent_events() const override;
  /// Stream "release"(a, 0). Throws std::runtime_error when the agent's objective certifies no
  /// Assumption 2 (agent.lipschitz empty): its sensitivity cannot be bounded.
  void release(const TunedAgent& agent, const protocol::ReleaseInputs& in,
               protocol::FinalRelease& out) const override;
  std::vector<std::unique_ptr<const protocol::AuditableRelease>> auditable(
      const TunedAgent& agent, double noise_scale) const override;

  /// Delta of Theorem 7 for the agent's certificate (throws as release does without one).
  double sensitivity(const TunedAgent& agent) const;

 private:
  double epsilon_;
};

}  // namespace fbosim::systems
