#pragma once
// One release of schedule.kind `buffered` (issue 41 sec. 3; docs/TIME.md, "Privacy") as an
// auditable release: K agents' messages arrived (the canary's and K - 1 others', which send zero
// vectors; the other N - K agents' slots are empty, counting as unselected), summed with the
// DE weights of all N agents fixed before the release (ServerReleaseAudit's canary and round:
// the largest whitened shift) and the mechanism's noise. The time line is public (who arrives
// is the same under both inputs), so the neighbours differ in the canary's message only: zeroed
// (D) or on the clipping bound (D'), TrustReleaseAudit's distributed neighbours. The claim is
// what the run's ledger charges the canary for it (run::charged_event): the mechanism's event
// without its sampling, Gaussian(z) at q = 1, since the release instant depends on who takes
// part.
// Broken variants, for the tests that show the audit catches them:
//   charged_once   the release sums two messages of the canary (an older one not discarded,
//                  in a slot of its own with the canary's weights) and the ledger charges one
//   renormalised   the weights renormalised over the arrivals (each sub-region's weights of the
//                  K arrivals scaled to the sum over all N) while the noise stays calibrated
//                  to the fixed weights' w_max (in no sub-region below it)
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "algorithms/de/weight_schedule.hpp"
#include "algorithms/protocol/auditable_release.hpp"
#include "algorithms/server/dp_mechanism.hpp"

namespace fbosim::server {

enum class BufferedBreak { none, charged_once, renormalised };

class BufferedReleaseAudit final : public protocol::AuditableRelease {
 public:
  struct Setting {
    double noise_scale = 1;  ///< multiplies the audited noise, not the claim
    BufferedBreak broken = BufferedBreak::none;
  };
  /// A release of `buffer` = K of N = `agents` agents' messages. Throws std::invalid_argument
  /// for K outside 1..N, a trust model other than central or adaptive clipping (neither is
  /// audited under buffered), or a bad noise scale.
  BufferedReleaseAudit(const DpMechanism::Options& mechanism, int features, int agents, int regions,
                       const de::WeightSchedule::Options& weights, int rounds, int buffer,
                       Setting setting);

  std::string name() const override;
  std::pair<std::string, std::string> inputs() const override { return {"zeroed", "canary"}; }
  /// Gaussian(z): the mechanism's event at q = 1 (run::charged_event under buffered).
  privacy::DpEvent event() const override;
  double statistic(bool neighbour, core::RngStream& rng) const override;
  std::vector<protocol::AuditDetail> details() const override;

  int canary() const { return canary_; }
  /// The agents whose messages the release holds (the canary and K - 1 others, in order).
  const std::vector<int>& arrivals() const { return arrivals_; }
  /// The weights the audited release sums with: P x N (P x (N + 1) for charged_once).
  const Eigen::MatrixXd& weights() const { return used_; }

 private:
  DpMechanism::Options intact_;
  Setting setting_;
  int features_, agents_, regions_, buffer_;
  std::shared_ptr<const DpMechanism> audited_;
  int round_ = 0, canary_ = 0;
  std::vector<int> arrivals_;
  Eigen::MatrixXd used_;
  Eigen::VectorXd coef_, direction_, message_, zero_;
};

}  // namespace fbosim::server
