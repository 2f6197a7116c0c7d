#pragma once
// The BLR posterior of DP-FTS-DE eq. 2 on random features drawn once and kept (an agent's own
// Thompson-sampling step with `local_ts.redraw: refit`). The base features are drawn once with
// length scale 1 and signal variance 1 (s_i ~ N(0, I), b_i ~ U[0, 2 pi]); for the GP
// hyperparameters (l, sigma_0^2) they are rescaled to the frequencies s_i / l, a draw from the
// spectral density of the SE kernel with length scale l (Rahimi & Recht 2007), with amplitude
// sigma_0^2. The posterior is rebuilt from scratch only when l, sigma_0^2 or the regulariser
// lambda change; in between, each new observation is a rank-one update of the factor of
// Sigma_t (BlrPosterior, O(M^2)) and a posterior sample costs O(M^2), whatever the number of
// observations.
#include <optional>

#include <Eigen/Core>

#include "algorithms/rff/blr_posterior.hpp"
#include "algorithms/rff/random_features.hpp"
#include "core/rng.hpp"

namespace fbosim::rff {

class FixedFeatureBlr {
 public:
  /// base: the features drawn once with length scale 1 and signal variance 1
  /// (RandomFeatures::draw(d, M, 1, 1, rng)).
  explicit FixedFeatureBlr(RandomFeatures base);

  /// Sets the hyperparameters (l > 0, signal_var > 0, lambda, the regulariser of eq. 2). On the
  /// first call, or when any of them differs from the current ones, the features are rescaled
  /// and the posterior emptied: returns true. Otherwise nothing changes: false.
  bool set_hyper(double lengthscale, double signal_var, double lambda);
  /// The same with one length scale per input dimension (or one, size 1): column k of the
  /// base frequencies over l_k (the base drawn from the kernel family's spectral density with
  /// length scale 1, RandomFeatures::draw(d, M, family, ones, 1, rng)).
  bool set_hyper(const Eigen::VectorXd& lengthscales, double signal_var, double lambda);
  /// Conditions the posterior on more observations: X n x d (one point per row), y an
  /// n-vector. Each is a rank-one update of the factor, except several at once on an empty
  /// posterior (after set_hyper), which are added as one batch (factorised at the next use).
  /// Throws std::logic_error before set_hyper.
  void add(const Eigen::MatrixXd& X, const Eigen::VectorXd& y);
  /// One draw omega ~ N(nu_t, lambda Sigma_t^-1) (BlrPosterior::sample, with its fallback).
  Eigen::VectorXd sample(core::RngStream& rng);

  const RandomFeatures& base() const { return base_; }
  /// The rescaled features (after set_hyper).
  const RandomFeatures& features() const;
  /// The posterior on the rescaled features (after set_hyper).
  BlrPosterior& posterior();
  int observations() const { return posterior_ ? posterior_->observations() : 0; }

 private:
  RandomFeatures base_;
  std::optional<RandomFeatures> features_;
  std::optional<BlrPosterior> posterior_;
  double lengthscale_ = 0, signal_var_ = 0, lambda_ = 0;
  Eigen::VectorXd lengthscales_;  // set_hyper with a vector
};

}  // namespace fbosim::rff
