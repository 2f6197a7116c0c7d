#pragma once
// The server's release of one round (DP-FTS-DE Algo. 1, lines 5-13: subsample, clip, DE-weighted
// sum, Gaussian noise) as an auditable release (protocol/auditable_release.hpp).
// Two neighbouring inputs: D' with a "canary" agent whose message sits exactly on the clipping
// bound S / sqrt(P), and D without it (Poisson sampling, add/remove neighbours) or with the
// opposite message (fixed-size sampling, replace-one neighbours: sensitivity 2, Wang, Balle &
// Kasiviswanathan 2019). The other agents send nothing [choice: the worst case for the test;
// their messages would be identical in D and D' and only hide the canary].
// The canary and the round whose DE weights are used (agent n in sub-region n mod P, rounds
// 0 .. rounds - 1) are those that move the release furthest in units of the noise:
// |(w_n^(i) (S / sqrt(P)) / (q sigma_i))_i|, at most 1 / z. A canary that carries w_max in one
// sub-region only (round 1 of DE: the other weights are ~exp(-15) smaller) shifts by
// 1 / (z sqrt(P)): with the noise halved that is 2 / (z sqrt(P)), the full sensitivity 1 / z at
// P = 4, so no audit of such a release can tell a halved mechanism from the accountant's bound.
// Once the schedule has made the weights uniform (a_t = 1), every agent carries w_max = 1/N in
// every sub-region and the shift is the full 1 / z; the audit picks such a round when the
// config releases one, and reports the fraction of 1 / z it reached otherwise.
// Statistic: s = sum_i (w_c^(i) / sigma_i^2) <omega^(i), v / |v|>, the likelihood ratio of the
// Gaussian mean shift the canary causes (a monotone function of it, also for the Poisson
// mixture (1 - q) N(0, .) + q N(shift, .)), on the coordinates of the sub-regions where the
// canary has weight; the other coordinates are noise that does not depend on the canary.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "algorithms/de/weight_schedule.hpp"
#include "algorithms/protocol/auditable_release.hpp"
#include "algorithms/server/dp_mechanism.hpp"

namespace fbosim::server {

class ServerReleaseAudit final : public protocol::AuditableRelease {
 public:
  /// The release of N = `agents` agents' M-vectors in P = `regions` sub-regions with the DE
  /// weights of `weights`, over rounds 0 .. rounds - 1; noise_scale multiplies the audited
  /// mechanism's noise (not the claim). Throws std::invalid_argument for bad options.
  ServerReleaseAudit(const DpMechanism::Options& mechanism, int features, int agents, int regions,
                     const de::WeightSchedule::Options& weights, int rounds, double noise_scale);

  std::string name() const override;
  /// ("without", "with") the canary.
  std::pair<std::string, std::string> inputs() const override { return {"without", "with"}; }
  privacy::DpEvent event() const override;
  double statistic(bool neighbour, core::RngStream& rng) const override;
  std::vector<protocol::AuditDetail> details() const override;

  int round() const { return round_; }    ///< the round whose DE weights are used
  int canary() const { return canary_; }  ///< the canary agent
  /// DE's weights of round(), the (sub-region x agent) matrix the release uses.
  const Eigen::MatrixXd& weights() const { return weights_; }
  /// The canary's mean shift in noise standard deviations times z (noise_scale = 1): 1 when it
  /// carries w_max in every sub-region, the sensitivity the accountant assumes.
  double sensitivity_fraction() const { return shift_ * intact_.noise_multiplier * noise_scale_; }

 private:
  void choose_canary(const de::WeightSchedule::Options& weights, int rounds);

  DpMechanism::Options intact_;  ///< the config's mechanism (the claim's)
  double noise_scale_;
  int features_, agents_, regions_;
  std::shared_ptr<const DpMechanism> audited_;  ///< noise scaled by noise_scale
  int round_ = 0, canary_ = 0;
  double shift_ = 0;  ///< in noise standard deviations, for the audited mechanism
  Eigen::MatrixXd weights_;
  Eigen::VectorXd coef_;  ///< per sub-region: w_c^(i) / sigma_i^2, scaled to max 1
  Eigen::VectorXd direction_, message_, opposite_;
};

}  // namespace fbosim::server
