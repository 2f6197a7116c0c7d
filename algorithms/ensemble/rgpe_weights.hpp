#pragma once
// Ranking-loss weights of RGPE (Feurer, Letham & Bakshy 2018, "Scalable meta-learning for
// Bayesian optimization", sec. 3.1-3.2), as adapted to federated BO (FTS sec. 3.2; RGPE's
// branch of `maximize` in the authors' code [CODE-FTS], federated_bayesian_optimization.py): w_m =
// P(model m has the lowest ranking loss), estimated from S loss samples per model, with the
// weight-dilution guard.
#include <vector>

#include <Eigen/Core>

#include "algorithms/ensemble/source_posterior.hpp"
#include "algorithms/ensemble/variant.hpp"
#include "algorithms/rff/random_features.hpp"
#include "algorithms/surrogate/surrogate.hpp"
#include "core/rng.hpp"

namespace fbosim::ensemble {

struct RgpeOptions {
  int samples = 100;  ///< S (S_rgpe = 100 in the FTS code)
  /// authors [CODE-FTS]: source losses from independent per-pair marginal samples
  /// (independent_rank_losses); corrected: from joint samples (joint_rank_losses). Everything
  /// else (target leave-one-out losses, dilution guard, ties) is the same in both.
  Variant variant = Variant::authors;
  /// Loss given to every sample of a source dropped by the dilution guard ([CODE-FTS]: 1e5).
  double discarded_loss = 1e5;
};

/// The weights of the N sources and the target: an (N+1)-vector (sources 0..N-1, target
/// last), non-negative, summing to 1, multiples of 1/S.
/// features: the shared RFF; X: n x d target inputs; y: their n observed outputs; target: the
/// target's GP (its hyperparameters are used for the leave-one-out refits; its data are
/// ignored). Draws, in order: target_rank_losses, then each source's losses in source order.
/// [choice] With n < 2 there is no pair to rank: all weight goes to the target and no draw is
/// made.
Eigen::VectorXd rgpe_weights(const std::vector<SourcePosterior>& sources,
                             const rff::RandomFeatures& features,
                             const surrogate::Surrogate& target, const Eigen::MatrixXd& X,
                             const Eigen::VectorXd& y, core::RngStream& rng,
                             const RgpeOptions& options = {});

/// The guard and winner step on sampled losses: losses is (N+1) x S (row m = source m, row N
/// = target, column s = sample s).
/// 1. Weight-dilution guard (Feurer et al. 2018, sec. 3.2; [CODE-FTS]): a
///    source whose median loss exceeds the 95th percentile of the target's losses gets
///    discarded_loss in every sample (median and percentile as numpy's, linear interpolation).
/// 2. Winners ([CODE-FTS]): in each sample the model with the smallest loss
///    wins; the target wins every tie it is part of, otherwise the lowest index (np.argmin).
///    [choice] the corrected variant keeps this rule (the paper does not say; BoTorch's
///    tutorial takes argmin over a stack with the target last, i.e. ties to a source).
/// 3. w_winner += 1 / S. Counted as integers and divided once, so the weights are exact
///    multiples of 1/S (the code's repeated += 1/S differs by rounding only).
Eigen::VectorXd rgpe_weights_from_losses(const Eigen::MatrixXd& losses,
                                         double discarded_loss = 1e5);

/// numpy.percentile(v, pct) with the default linear interpolation: sorted a, h = (S - 1) pct /
/// 100, a[floor h] + (h - floor h)(a[floor h + 1] - a[floor h]). v non-empty, pct in [0, 100].
double percentile_linear(const Eigen::VectorXd& v, double pct);
/// numpy.median(v): the middle value, or the mean of the two middle values.
double median(const Eigen::VectorXd& v);

}  // namespace fbosim::ensemble
