#pragma once
// Weights of the transfer acquisition function TAF (Wistuba, Schilling & Schmidt-Thieme 2018,
// "Scalable Gaussian process-based transfer surrogates for hyperparameter optimization",
// ranking-based similarity of TST-R / TAF-R) as adapted to federated BO (FTS sec. 3.2; TAF's
// branch of `maximize` in the authors' code [CODE-FTS], federated_bayesian_optimization.py): an
// Epanechnikov kernel of a ranking dissimilarity between each source's posterior mean and the
// target's observations,
//   w_m = 3/4 (1 - (dist_m / rho)^2) if dist_m <= rho, else 0;   w_target = 3/4.
#include <vector>

#include <Eigen/Core>

#include "algorithms/ensemble/source_posterior.hpp"
#include "algorithms/ensemble/variant.hpp"
#include "algorithms/rff/random_features.hpp"

namespace fbosim::ensemble {

/// Number of discordant ORDERED pairs (j, k), j != k, between a source's predictions and the
/// target's observations: 1[mean_j > mean_k] != 1[y_j > y_k] (strict, as the code's meta-
/// features; a pair tied in both agrees). mean, y: n-vectors.
long discordant_pairs(const Eigen::VectorXd& mean, const Eigen::VectorXd& y);

/// The dissimilarity of TAF for n >= 2 target points, with D = discordant_pairs:
/// - authors [CODE-FTS]: the Euclidean distance between the pairwise-ranking meta-feature
///   vectors (entry c = 1/(n(n-1)) when the pair is ordered "j above k", else 0), i.e.
///   c sqrt(D). Since D <= n(n-1), dist <= 1/sqrt(n(n-1)) <= 1/sqrt(6) < 0.41 for n >= 3, so
///   with rho = 0.5 the kernel never cuts off and every source weight lies in [1/4, 3/4]
///   (3/4 (1 - (1/6)/(1/4)) = 1/4), tending to 3/4 as n grows.
/// - corrected: the fraction of discordant ordered pairs, D / (n(n-1)) in [0, 1] (the TAF
///   paper's ranking dissimilarity).
double taf_distance(const Eigen::VectorXd& mean, const Eigen::VectorXd& y, Variant variant);

/// 3/4 (1 - (dist / rho)^2) for dist <= rho, else 0.
double epanechnikov(double dist, double rho);

/// Unnormalised weights: an (N+1)-vector, sources 0..N-1 from epanechnikov(taf_distance(
/// mean of source m at the target inputs, y), rho), target last = 3/4. The sources are
/// compared by their posterior MEAN phi(x_j)^T nu_m at the target inputs X (n x d).
/// rho > 0 is the bandwidth (kernel_rho = 0.5 in the FTS code).
/// [choice] n < 2 gives no pair to compare: every source weight is 0 (the TAF score is then
/// the target's EI), as RGPE gives all weight to the target there.
Eigen::VectorXd taf_weights(const std::vector<SourcePosterior>& sources,
                            const rff::RandomFeatures& features, const Eigen::MatrixXd& X,
                            const Eigen::VectorXd& y, Variant variant, double rho = 0.5);

}  // namespace fbosim::ensemble
