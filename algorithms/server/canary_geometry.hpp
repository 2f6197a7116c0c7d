#pragma once
// The canary's test geometry shared by the release audits (ServerReleaseAudit, the trusted
// server's release; TrustReleaseAudit, each trust model's view): what the adversary's
// likelihood-ratio test looks at, so both audits test the same statistic.
#include <vector>

#include <Eigen/Core>

namespace fbosim::server {

struct CanaryGeometry {
  /// Per sub-region i: w_c^(i) / sigma_i^2 scaled to a maximum of 1, the weight of sub-region
  /// i's noisy entry in the likelihood ratio of the canary's mean shift (S / sqrt(P)) v / g
  /// against independent noise of std sigma_i.
  Eigen::VectorXd coef;
  /// The canary's message: on the clipping bound in the fixed direction v = 1 / sqrt(M), and
  /// its opposite (the neighbour furthest from it).
  Eigen::VectorXd direction, message, opposite;
};

/// weights: P x N (sub-region, agent); stds: per sub-region; bound: the clipping bound of one
/// message; features: M.
CanaryGeometry canary_geometry(const Eigen::MatrixXd& weights, int canary,
                               const std::vector<double>& stds, double bound, int features);

/// The audits' test statistic of one release: sum_i coef_i <omega_i, direction> over the
/// sub-regions with coef_i > 0 (omegas: the released vector of each sub-region).
double canary_statistic(const Eigen::VectorXd& coef, const Eigen::VectorXd& direction,
                        const std::vector<Eigen::VectorXd>& omegas);

}  // namespace fbosim::server
