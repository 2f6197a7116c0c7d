#pragma once
// PO-GP-UCB (Kharkovskii, Dai & Low, "Private Outsourced Bayesian Optimization", ICML 2020) and
// its non-private baseline (sec. 4): the curator normalises its inputs X (the grid of the
// objective's finite domain) to maximal norm 25 after centring, releases Z by Algorithm 1 before
// round 0 (an (epsilon, delta) event in the run's ledger, as the paper's Theorem 1 states) and
// answers the modeler's queries by row index; the modeler runs GP-UCB on the rows of Z
// (Algorithm 2, GpUcbAgent). `gp_ucb` runs the same GP-UCB on the normalised X itself, with the
// same initial rows (the same "agent.init" stream) and objective. Every agent is its own
// curator-modeler pair on its own objective (agents.count = 1 in the paper's setting); with N
// agents the N releases are composed (the agents of our synthetic family share X).
// Variants: `paper` (our reading of the paper's Algorithm 2: UCB bonus beta^1/2 sigma, delta' =
// delta_ucb / 2 = 0.025, the lift sqrt(sigma^2 + omega^2), l = 1.25) and `authors` (the authors'
// code as issue #12 reports it: bonus beta^1/2 sigma^2, delta' = 0.1, the lift sigma + omega, l =
// 0.25 x the maximal norm); the reader applies the variant's defaults.
#include <cmath>
#include <string>

#include "algorithms/agents/gp_ucb_agent.hpp"
#include "algorithms/curator/curator.hpp"
#include "algorithms/protocol/algorithm.hpp"
#include "schema/enum_names.hpp"
#include "schema/fwd.hpp"

namespace fbosim::protocol {
struct AlgorithmEntry;
}

namespace fbosim::systems {

enum class PoVariant { paper, authors };
inline constexpr schema::EnumNames<PoVariant> kPoVariantNames{{PoVariant::paper, "paper"},
                                                              {PoVariant::authors, "authors"}};

/// The defaults are the paper's synthetic experiment (sec. 4, Table 1): epsilon = e^1.1,
/// delta = 1e-5, r = 10, maximal norm 25; l = 1.25, sigma_y^2 = 1, sigma_n^2 = 1e-5 (known to
/// the modeler); delta' = delta_ucb / 2 = 0.025.
struct PoGpUcbConfig {
  std::string name = "po_gp_ucb";  ///< po_gp_ucb | gp_ucb (the non-private baseline)
  PoVariant variant = PoVariant::paper;
  /// curator.epsilon, curator.delta, curator.r, the lift
  curator::CuratorOptions curator{std::exp(1.1), 1e-5, 10, curator::Lift::paper};
  double max_norm = 25;  ///< curator.max_norm
  /// gp.* (gp.mean included), ucb.delta, the bonus, agents.init_points
  agents::GpUcbOptions ucb{.hyper = {1.25, 1.0, 1e-5}, .delta = 0.025};
};

class PoGpUcbSystem final : public protocol::Algorithm {
 public:
  /// Throws std::invalid_argument for out-of-range settings.
  explicit PoGpUcbSystem(PoGpUcbConfig config);

  std::string name() const override { return config_.name; }
  /// Streams: "curator"(n) (agent n's projection matrix M). Needs a finite domain (grid).
  protocol::RunParts build(const protocol::RunInputs& inputs) const override;
  /// po_gp_ucb: one EpsilonDelta(epsilon, delta) per agent; gp_ucb: none.
  std::vector<privacy::DpEvent> possible_events(int agents) const override;
  /// Every curator's release before round 0.
  std::vector<privacy::DpEvent> run_events(int agents, int) const override {
    return possible_events(agents);
  }
  /// Every curator's release before round 0, in agent order.
  protocol::PrivacyPlan privacy_plan(int agents) const override {
    protocol::PrivacyPlan plan;
    plan.setup = possible_events(agents);
    return plan;
  }
  std::vector<protocol::StatColumn> server_columns() const override { return {}; }
  /// po_gp_ucb: the curator's release of agent 0's dataset (CuratorReleaseAudit); gp_ucb: none.
  /// Throws std::invalid_argument for a noise_scale other than 1 (the release has no noise)
  /// or a domain that is not a finite dataset.
  std::vector<std::unique_ptr<const protocol::AuditableRelease>> auditable_releases(
      const protocol::AuditInputs& inputs) const override;
  /// po_gp_ucb: the curator's decision on run 0's dataset (normalised as build() does, the same
  /// for every agent): curator.sigma_min (the smallest singular value of the centred inputs),
  /// curator.omega (Alg. 1 line 5), curator.branch (`if`: released as is; `else`: lifted, line
  /// 9) and curator.lift. gp_ucb: none.
  std::vector<protocol::AuditDetail> run_facts(const protocol::AuditInputs& inputs) const override;

  /// Its memory and work for the refusal of absurd sizes (the dominant terms, each naming its
  /// keys).
  void estimate(const protocol::ExperimentFacts& facts,
                protocol::ResourceEstimate& estimate) const override;

  const PoGpUcbConfig& config() const { return config_; }
  bool is_private_variant() const { return config_.name == "po_gp_ucb"; }

 private:
  PoGpUcbConfig config_;
};

/// The keys in reading order: po.variant, curator.*, ucb.delta, agents.init_points and
/// gp.lengthscale, gp.signal_var, gp.noise_var, gp.mean. po.variant: authors makes 0.1 the default
/// of ucb.delta and 0.25 x curator.max_norm that of gp.lengthscale.
const schema::Group<PoGpUcbConfig>& po_gp_ucb_keys();
/// Registers po_gp_ucb and gp_ucb, in that order.
void register_po_gp_ucb_algorithms(schema::Registry<protocol::AlgorithmEntry>& registry);

}  // namespace fbosim::systems
