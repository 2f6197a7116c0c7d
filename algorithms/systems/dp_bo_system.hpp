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

#include "algorithms/agents/gp_ucb_agent.hpp"
#include "algorithms/protocol/algorithm.hpp"
#include "algorithms/release/private_selection.hpp"
#include "algorithms/systems/dp_bo_release.hpp"
#include "sim/schema/enum_names.hpp"
#include "sim/schema/fwd.hpp"

namespace fbosim::protocol {
struct AlgorithmEntry;
}

namespace fbosim::systems {

enum class ReleaseMechanism { kusner, papernot_steinke, kusner_lipschitz };
inline constexpr schema::EnumNames<ReleaseMechanism> kReleaseMechanismNames{
    {ReleaseMechanism::kusner, "kusner"},
    {ReleaseMechanism::papernot_steinke, "papernot_steinke"},
    {ReleaseMechanism::kusner_lipschitz, "kusner_lipschitz"}};
enum class Observations { noisy, noise_free };
inline constexpr schema::EnumNames<Observations> kObservationsNames{
    {Observations::noisy, "noisy"}, {Observations::noise_free, "noise_free"}};

struct DpBoConfig {
  std::string name = "dp_bo";
  int per_axis = 8;  ///< candidates.per_axis (box domains)
  /// gp.lengthscale 0.2, gp.noise_var 1e-3 (0 with noise-free observations: the reader's
  /// derived default); delta' = delta / 3
  agents::GpUcbOptions ucb{.hyper = {0.2, 1.0, 1e-3}};
  ReleaseMechanism mechanism = ReleaseMechanism::kusner;  ///< release.mechanism
  Observations observations = Observations::noisy;        ///< release.observations
  bool hyperparameter = true;                             ///< release.hyperparameter
  bool value = true;                                      ///< release.value
  double epsilon = 1;              ///< release.epsilon (each Kusner release; P&S: the total)
  double delta = 1e-3;             ///< release.delta (each Kusner release; P&S: its delta)
  double neighbour_kernel = 0.99;  ///< release.neighbour_kernel: k_V(V, V') [input, A8]
  bool greedy_gamma = true;        ///< release.gamma_bound: greedy | trivial
  std::optional<double> de_freitas_a, de_freitas_tau;  ///< release.de_freitas.{a,tau}
  release::PrivateSelectionOptions selection;  ///< release.repetitions.*, release.score_sensitivity
};

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
