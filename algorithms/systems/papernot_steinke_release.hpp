#pragma once
// Papernot & Steinke, "Hyperparameter Tuning with Renyi Differential Privacy" (ICLR 2022), as
// DpBoSystem's final release (beyond Kusner et al.'s paper): the best of K random candidates by
// noisy score on the same candidate set, RepeatAndSelect(Laplace) accounted with RDP, its base
// epsilon calibrated so that one selection costs release.epsilon at release.delta. The
// hyperparameter and its noisy score are released together: both rows, one event. The GP-UCB
// rounds then only give the non-private reference.
#include <memory>
#include <vector>

#include "algorithms/release/private_selection.hpp"
#include "algorithms/systems/dp_bo_release.hpp"

namespace fbosim::systems {

class PapernotSteinkeRelease final : public DpBoRelease {
 public:
  /// Calibrates the base epsilon (rdp); throws std::invalid_argument where it cannot.
  explicit PapernotSteinkeRelease(const DpBoConfig& config);

  /// One RepeatAndSelect event.
  std::vector<privacy::DpEvent> agent_events() const override;
  /// Streams: "release"(a, 0); K queries of the agent's private objective.
  void release(const TunedAgent& agent, const protocol::ReleaseInputs& in,
               protocol::FinalRelease& out) const override;
  std::vector<std::unique_ptr<const protocol::AuditableRelease>> auditable(
      const TunedAgent& agent, double noise_scale) const override;

  const release::PrivateSelectionOptions& selection() const { return selection_; }

 private:
  double epsilon_, delta_;
  release::PrivateSelectionOptions selection_;  ///< base_epsilon calibrated
};

}  // namespace fbosim::systems
