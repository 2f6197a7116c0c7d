#pragma once
// Maximises a sampled function g(x) = phi(x) . omega over a box, as in App. B.2.6 of the
// DP-FTS-DE paper: evaluate `random_points` uniform points, then run L-BFGS-B (optim::DenseLbfgsb)
// from `starts` random points; keep the best of everything seen. The recipe is ScoreMaximiser's,
// given g and its gradient (same draws, same result).
#include <Eigen/Core>

#include "algorithms/acquisition/score_maximiser.hpp"
#include "algorithms/rff/random_features.hpp"
#include "core/box.hpp"
#include "core/rng.hpp"

namespace fbosim::acq {

struct Candidate {
  Eigen::VectorXd x;  ///< the point (d-vector)
  double value;       ///< g(x)
};

class BoxMaximiser {
 public:
  /// ScoreMaximiser's own (one struct per concept: a setting added there reaches this
  /// maximiser too; fd_step is unused, g has its gradient).
  using Options = ScoreMaximiser::Options;
  BoxMaximiser() = default;
  explicit BoxMaximiser(Options options) : options_(options) {}

  /// argmax over `box` of features.value(x, omega); every draw comes from rng.
  Candidate maximise(const rff::RandomFeatures& features, const Eigen::VectorXd& omega,
                     const core::Box& box, core::RngStream& rng) const;

  const Options& options() const { return options_; }

 private:
  Options options_;
};

}  // namespace fbosim::acq
