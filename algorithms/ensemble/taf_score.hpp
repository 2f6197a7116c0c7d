#pragma once
// The transfer acquisition function TAF (Wistuba, Schilling & Schmidt-Thieme 2018, eq. for
// TAF: a weighted mean of the sources' improvements and the target's EI) as adapted to
// federated BO (FTS sec. 3.2; the authors' code, federated_helper_funcs.py's "taf" utility):
//   TAF(x) = (sum_m w_m I_m(x) + w_t EI_A(x)) / (sum_m w_m + w_t),
// with y_max_m source m's incumbent (sent with its message) and
// - authors [CODE-FTS]: I_m = max(0, g_m(x) - y_max_m - xi), g_m(x) ~ N(mu_m(x), var_m(x)) a
//   FRESH draw at every evaluation, and EI_A with the noise-inclusive variance (GPy).
//   The authors maximised this noisy function with scipy's L-BFGS-B without a gradient, i.e.
//   on finite differences of independent draws; here the gradient is that of the evaluation's
//   own draw: with g = mu + eps sd and eps held fixed, d g / dx = d mu / dx + eps d sd / dx.
// - corrected: I_m = max(0, mu_m(x) - y_max_m - xi), the TAF paper's predicted improvement,
//   and EI_A with the latent variance.
// xi: the EI margin, undefined in the code ([choice] 0), applied to every term.
#include <vector>

#include <Eigen/Core>

#include "algorithms/acquisition/score_maximiser.hpp"
#include "algorithms/ensemble/feature_point.hpp"
#include "algorithms/ensemble/source_posterior.hpp"
#include "algorithms/ensemble/variant.hpp"
#include "algorithms/surrogate/surrogate.hpp"
#include "core/rng.hpp"

namespace fbosim::ensemble {

class TafScore {
 public:
  /// weights: (N+1)-vector from taf_weights (target last), >= 0, not all 0; every source with
  /// non-zero weight must carry its incumbent. target: the target's GP on all its data; y_max:
  /// its incumbent. rng: the stream of the authors' draws (required for authors, unused for
  /// corrected), held by pointer. features, sources, target and rng must outlive the score.
  TafScore(const rff::RandomFeatures& features, const std::vector<SourcePosterior>& sources,
           const Eigen::VectorXd& weights, const surrogate::Surrogate& target, double y_max,
           Variant variant, core::RngStream* rng = nullptr, double xi = 0.0);

  /// TAF at x (d-vector); grad (if non-null) receives d TAF / dx. authors: first draws one
  /// normal per active source (in source order) from rng, then value_with_draws.
  double value(const Eigen::VectorXd& x, Eigen::VectorXd* grad) const;
  /// authors only: TAF at x with the given normals eps (one per active source, in order):
  /// g_m = mu_m(x) + eps_m sd_m(x). Deterministic, so its gradient can be checked.
  double value_with_draws(const Eigen::VectorXd& x, const Eigen::VectorXd& eps,
                          Eigen::VectorXd* grad) const;
  /// TAF at every row of X (m x d). authors: draws an m x A matrix of normals row by row
  /// (A = active sources), the same draws as m calls of value(), then batch_with_draws.
  Eigen::VectorXd batch(const Eigen::MatrixXd& X) const;
  /// authors only: batch with the normals E (m x A, row j for point j).
  Eigen::VectorXd batch_with_draws(const Eigen::MatrixXd& X, const Eigen::MatrixXd& E) const;
  /// value and batch as an acq::ScoreMaximiser::Score (with gradient). It refers to this
  /// object, which must outlive it. Not thread-safe (scratch space): one TafScore per thread.
  acq::ScoreMaximiser::Score score() const;

  /// Indices of the sources with non-zero weight (the draws are made for these only).
  const std::vector<int>& active_sources() const { return active_; }

 private:
  double evaluate(const Eigen::VectorXd& x, const Eigen::VectorXd* eps,
                  Eigen::VectorXd* grad) const;
  double target_term(const Eigen::VectorXd& x, Eigen::VectorXd* grad) const;  // w_t EI_A

  const rff::RandomFeatures* features_;
  const surrogate::Surrogate* target_;
  core::RngStream* rng_;
  double w_target_, y_max_, xi_, total_weight_;
  Variant variant_;
  std::vector<int> active_;
  std::vector<const SourcePosterior*> sources_;  // active ones
  Eigen::VectorXd w_, offset_;                   // A: weights, y_max_m + xi
  Eigen::MatrixXd nu_;                           // M x A, column i = nu of active source i
  // Scratch space (mutable: value() is logically const).
  mutable FeaturePoint point_;
  mutable SourcePosterior::Workspace ws_;
  mutable Eigen::VectorXd mu_, eps_, acc_, gx_, tm_, tv_;
};

}  // namespace fbosim::ensemble
