#pragma once
// The differentially private release of BO results (Kusner, Gardner, Garnett & Weinberger,
// "Differentially Private Bayesian Optimization", ICML 2015): every agent tunes
// its own objective (a validation score on its private validation set) by GP-UCB over a finite
// set Lambda of candidate hyperparameters (GpUcbAgent: beta_t = 2 log(|Lambda| t^2 pi^2 /
// (2 delta)), the same beta as the bounds [R-proof]); after the last round, the run's final
// release publishes, by the strategy `release.mechanism` names (dp_bo_release.hpp; each
// declares its own events):
//   kusner (the paper's Algorithms 1 and 2, kusner_release.hpp): the best hyperparameter by the
//     exponential mechanism, the best validation score by the Laplace mechanism, each an
//     (epsilon, delta) event;
//   papernot_steinke (beyond the paper: Papernot & Steinke 2022, papernot_steinke_release.hpp):
//     the best of K random candidates by noisy score, RepeatAndSelect(Laplace) accounted with
//     RDP; the GP-UCB rounds then only give the non-private reference.
//   kusner_lipschitz (the paper's Algorithm 3, kusner_lipschitz_release.hpp): without the GP
//     assumption, for objectives that certify Assumption 2, the best validation score by the
//     Laplace mechanism with Theorem 7's sensitivity, an (epsilon, 0) event.
// Each release also writes the non-private reference rows (mechanism "none"): argmax mu_T and
// max_t y_t. Candidates: the objective's grid when its domain is finite, else a grid of
// `per_axis` points per axis on the unit box (corners included).
#include <optional>
#include <string>

#include "algorithms/protocol/algorithm.hpp"
#include "algorithms/systems/dp_bo_config.hpp"
#include "algorithms/systems/dp_bo_release.hpp"
#include "schema/fwd.hpp"

namespace fbosim::protocol {
struct AlgorithmEntry;
}

namespace fbosim::systems {

class DpBoSystem final : public protocol::Algorithm {
 public:
  /// Throws std::invalid_argument for out-of-range settings; the release strategy calibrates
  /// Papernot & Steinke's base epsilon to `epsilon` at `delta` (rdp).
  explicit DpBoSystem(DpBoConfig config);

  std::string name() const override { return config_.name; }
  /// Streams: "release"(n, k) (agent n's k-th release).
  protocol::RunParts build(const protocol::RunInputs& inputs) const override;
  std::vector<privacy::DpEvent> possible_events(int agents) const override;
  /// Every agent's final release (the rounds spend nothing).
  std::vector<privacy::DpEvent> run_events(int agents, int) const override {
    return possible_events(agents);
  }
  /// Every agent's final release, in agent order.
  protocol::PrivacyPlan privacy_plan(int agents) const override {
    protocol::PrivacyPlan plan;
    plan.final = possible_events(agents);
    return plan;
  }
  std::vector<protocol::StatColumn> server_columns() const override { return {}; }
  bool releases_values() const override { return true; }
  /// One agent's final release (the strategy's), with the sensitivities of a run of
  /// `inputs.rounds` rounds on the candidates of `inputs.domain()`.
  std::vector<std::unique_ptr<const protocol::AuditableRelease>> auditable_releases(
      const protocol::AuditInputs& inputs) const override;

  /// Its memory and work for the refusal of absurd sizes (the dominant terms, each naming its
  /// keys).
  void estimate(const protocol::ExperimentFacts& facts,
                protocol::ResourceEstimate& estimate) const override;

  const DpBoConfig& config() const { return config_; }
  /// The candidate set for a domain (n x d).
  Eigen::MatrixXd candidates(const core::Domain& domain) const;
  /// The events of one agent's release (the strategy's).
  std::vector<privacy::DpEvent> agent_events() const { return release_->agent_events(); }

 private:
  /// What agent a's tuner left, its references evaluated (in this order: the caller's row of
  /// argmax mu_T first).
  TunedAgent tuned(const agents::GpUcbAgent& tuner, std::size_t a, const Eigen::MatrixXd& L,
                   int dim, const protocol::ReleaseInputs& in) const;
  /// Every agent's release, then its two non-private reference rows.
  protocol::FinalRelease final_release(const std::vector<const agents::GpUcbAgent*>& tuners,
                                       const Eigen::MatrixXd& L, int dim,
                                       const protocol::ReleaseInputs& in) const;

  DpBoConfig config_;
  std::shared_ptr<const DpBoRelease> release_;
};

/// The keys in reading order: candidates.per_axis, release.*, agents.init_points,
/// gp.lengthscale, gp.noise_var, gp.mean. release.observations: noise_free makes 0 the default of
/// gp.noise_var.
const schema::Group<DpBoConfig>& dp_bo_keys();
/// Registers dp_bo.
void register_dp_bo_algorithm(schema::Registry<protocol::AlgorithmEntry>& registry);

}  // namespace fbosim::systems
