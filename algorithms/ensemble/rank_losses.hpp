#pragma once
// Sampled ranking losses of RGPE (Feurer, Letham & Bakshy 2018, eq. 3), as adapted to federated
// BO by the FTS authors' code (RGPE's branch of `maximize`,
// federated_bayesian_optimization.py). With the target's observations
// (x_j, y_j), j = 1..n, a model's loss in sample s counts the misranked ORDERED pairs:
//   L_s = sum_{j != k} 1[(y_j < y_k) xor (F_s[j] < F_s[k])].
// Each ordered pair is counted, so a misranked pair of distinct y (and distinct F) counts 2
// and a pair with tied y counts 1 (exactly one of its two orders is "misranked").
// Every function returns an S-vector of losses (integers stored as doubles) and takes all its
// draws from the stream passed in, in the order documented at each function.
#include <Eigen/Core>

#include "algorithms/ensemble/source_posterior.hpp"
#include "algorithms/surrogate/surrogate.hpp"
#include "core/rng.hpp"

namespace fbosim::ensemble {

/// Losses of S given joint samples: F is n x S (column s = F_s at the n target inputs), y the
/// n target outputs. O(n^2 S).
Eigen::VectorXd rank_losses(const Eigen::MatrixXd& F, const Eigen::VectorXd& y);

/// The target's leave-one-out losses (RGPE eq. 3 with f^{-j}): for each j in
/// order, `target` is cloned, fitted to the data without point j (same hyperparameters) and S
/// joint samples F^{(-j)} of the latent f at all n inputs are drawn (Surrogate::sample); then
/// L_s += sum_{k != j} 1[(y_j < y_k) xor (F^{(-j)}_s[j] < F^{(-j)}_s[k])].
/// X: n x d inputs, y: n outputs, n >= 2. For an ExactGp target the n posteriors come from
/// LeaveOneOut (one O(n^3) inverse, then O(n^2) each) with the same draws as the refits;
/// any other Surrogate is refitted n times. Then n joint draws: O(n^3 + S n^3) in all.
Eigen::VectorXd target_rank_losses(const surrogate::Surrogate& target, const Eigen::MatrixXd& X,
                                   const Eigen::VectorXd& y, int samples, core::RngStream& rng);

/// A source's losses from JOINT posterior samples at the target inputs (the original RGPE;
/// BoTorch's RGPE tutorial): F = source.sample(Phi, S, rng), then rank_losses(F, y).
/// Phi: n x M features at the target inputs.
Eigen::VectorXd joint_rank_losses(const SourcePosterior& source, const Eigen::MatrixXd& Phi,
                                  const Eigen::VectorXd& y, int samples, core::RngStream& rng);

/// [CODE-FTS] A source's losses from INDEPENDENT marginal samples: for each
/// ordered pair (j, k), j != k, and each sample, fresh a ~ N(mu_j, var_j), b ~ N(mu_k, var_k)
/// and L_s += 1[(y_j < y_k) xor (a < b)]. Since only the indicator matters, it is drawn as a
/// Bernoulli with the exact probability P(a < b) = Phi((mu_k - mu_j) / sqrt(var_j + var_k))
/// (1[mu_j < mu_k] when both variances are 0): the same distribution as two independent
/// normals, from ~16 random bits instead of two normals. The Bernoulli compares a uniform U,
/// read 16 bits at a time from the engine (four per 64-bit output), with q = P(discordant)
/// truncated to 64 bits: exact up to 2^-64 per pair. Draws: for each sample s, ceil(K / 4)
/// engine outputs for the K = n(n-1) ordered pairs (j-major, k-minor), then one more output for
/// each pair whose first 16 bits tied with q's (probability 2^-16 each), in pair order.
Eigen::VectorXd independent_rank_losses(const SourcePosterior& source, const Eigen::MatrixXd& Phi,
                                        const Eigen::VectorXd& y, int samples,
                                        core::RngStream& rng);

/// The probabilities q_jk = P(the ordered pair (j, k) is misranked) of
/// independent_rank_losses, as an n x n matrix (zero diagonal): the loss's mean over samples
/// is their sum (a Poisson-binomial mean). mean, var: the source's n marginal means and
/// variances at the target inputs.
Eigen::MatrixXd pair_discord_probabilities(const Eigen::VectorXd& mean, const Eigen::VectorXd& var,
                                           const Eigen::VectorXd& y);

}  // namespace fbosim::ensemble
