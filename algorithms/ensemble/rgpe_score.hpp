#pragma once
// The RGPE acquisition (Feurer, Letham & Bakshy 2018, eq. 4 and sec. 4; FTS sec. 3.2; the
// authors' code, federated_helper_funcs.py's "rgpe" utility): expected improvement over the
// target's incumbent y_max of the weighted ensemble
//   mean(x) = sum_m w_m mu_m(x) + w_t mu_A(x),   var(x) = sum_m w_m^2 var_m(x) + w_t^2 var_A(x),
// where mu_m, var_m are the sources' RFF posteriors and mu_A, var_A the target's GP.
// The sources with non-zero weight are merged once into SourcePosterior::linear_combination
// (the posterior of sum_m w_m g_m), so a point costs one triangular product whatever N is;
// sources with zero weight are never touched (that is what makes RGPE cheap).
#include <vector>

#include <Eigen/Core>

#include "algorithms/acquisition/score_maximiser.hpp"
#include "algorithms/ensemble/feature_point.hpp"
#include "algorithms/ensemble/source_posterior.hpp"
#include "algorithms/ensemble/variant.hpp"
#include "algorithms/surrogate/surrogate.hpp"

namespace fbosim::ensemble {

class RgpeScore {
 public:
  /// weights: (N+1)-vector from rgpe_weights (target last), >= 0, not all 0; target: the
  /// target's GP on all its data; y_max: the target incumbent (max observed y); xi: the EI
  /// margin ([CODE-FTS] references an undefined xi; [choice] 0).
  /// authors: var_A includes the target's noise variance (GPy's include_likelihood=True);
  /// corrected: var_A is that of the latent f. features, sources and target are held by
  /// reference and must outlive the score.
  RgpeScore(const rff::RandomFeatures& features, const std::vector<SourcePosterior>& sources,
            const Eigen::VectorXd& weights, const surrogate::Surrogate& target, double y_max,
            Variant variant, double xi = 0.0);

  /// Ensemble mean and variance at x (d-vector), with gradients when the pointers are set.
  surrogate::PointPrediction predict_point(const Eigen::VectorXd& x, Eigen::VectorXd* grad_mean,
                                           Eigen::VectorXd* grad_var) const;
  /// Ensemble mean and variance at X (m x d, one point per row).
  surrogate::Prediction predict(const Eigen::MatrixXd& X) const;
  /// EI at x; grad (if non-null) receives d EI / dx.
  double value(const Eigen::VectorXd& x, Eigen::VectorXd* grad) const;
  /// EI at every row of X (m x d) -> m-vector.
  Eigen::VectorXd batch(const Eigen::MatrixXd& X) const;
  /// value and batch as an acq::ScoreMaximiser::Score (with gradient). It refers to this
  /// object, which must outlive it. Not thread-safe: the score reuses scratch space, so use
  /// one RgpeScore per thread.
  acq::ScoreMaximiser::Score score() const;

  /// Indices of the sources with non-zero weight.
  const std::vector<int>& active_sources() const { return active_; }

 private:
  // Mean and variance at x; with grads, their gradients in gm_, gv_.
  surrogate::PointPrediction evaluate(const Eigen::VectorXd& x, bool grads) const;

  const rff::RandomFeatures* features_;
  const surrogate::Surrogate* target_;
  double w_target_, y_max_, xi_;
  Variant variant_;
  std::vector<int> active_;
  std::vector<SourcePosterior> merged_;  // empty, or the one linear combination
  // Scratch space (mutable: value() is logically const).
  mutable FeaturePoint point_;
  mutable SourcePosterior::Workspace ws_;
  mutable Eigen::VectorXd gm_, gv_, tm_, tv_;
};

}  // namespace fbosim::ensemble
