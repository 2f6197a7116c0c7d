#pragma once
// The server's release of one round under a trust model other than `central` (server.trust,
// issue 42), as an auditable release: each model's adversary gets its own view.
//   distributed, server sampling   the secure sum and who is in it (the selection); a release
//                                  without the canary in the sum gives the same statistic under
//                                  both inputs
//   distributed, agent sampling    the secure sum only (the coins are secret)
//   local                          the canary's own message, if it was selected to send one
//                                  (with server.local_coin it always sends one)
// Neighbours differ by zeroing the canary's vector (distributed: its share stays) or, under
// local DP, by moving it to the opposite side of the clip ball (local DP hides any change of
// the vector: sensitivity 2 S / sqrt(P)). The other agents send zero vectors; a `dropout`
// fraction of them drops out (their shares are missing from the sum). The canary and the round
// of the DE weights are ServerReleaseAudit's (the largest whitened shift).
// Broken variants, for the tests that show the audit catches them: shares forgotten (the claim
// at z although dropouts left fewer shares in the sum), local noise calibrated to the radius S
// instead of the diameter 2 S, subsampling amplification claimed although the server chose, the
// coin's amplification claimed although the coin is not secret (the agent sends only when it
// says yes, so the adversary sees whether it did).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "algorithms/de/weight_schedule.hpp"
#include "algorithms/protocol/auditable_release.hpp"
#include "algorithms/server/dp_mechanism.hpp"

namespace fbosim::server {

enum class TrustBreak { none, forget_shares, local_radius, claim_amplification, reveal_coin };

class TrustReleaseAudit final : public protocol::AuditableRelease {
 public:
  struct Setting {
    double noise_scale = 1;  ///< multiplies the audited noise (z or z_local), not the claim
    double dropout = 0;      ///< the fraction of the other agents whose messages are lost
    TrustBreak broken = TrustBreak::none;
  };
  /// Throws std::invalid_argument for a central mechanism, bad options, dropouts with q < 1
  /// (the charged noise would vary with the number selected), or a broken variant that does
  /// not apply to the model.
  TrustReleaseAudit(const DpMechanism::Options& mechanism, int features, int agents, int regions,
                    const de::WeightSchedule::Options& weights, int rounds, Setting setting);

  std::string name() const override;
  std::pair<std::string, std::string> inputs() const override { return {"zeroed", "canary"}; }
  /// What the ledger charges the canary for one release (the broken variants' wrong claims).
  privacy::DpEvent event() const override;
  double statistic(bool neighbour, core::RngStream& rng) const override;
  std::vector<protocol::AuditDetail> details() const override;

 private:
  DpMechanism::Options intact_;
  Setting setting_;
  int features_, agents_, regions_;
  std::shared_ptr<const DpMechanism> audited_;
  int round_ = 0, canary_ = 0, dropped_ = 0;
  Eigen::MatrixXd weights_;
  Eigen::VectorXd coef_;  ///< per sub-region: w_c^(i) / sigma_i^2, scaled to max 1
  Eigen::VectorXd direction_, message_, opposite_, zero_;
};

}  // namespace fbosim::server
