#pragma once
// Maximises a sampled function g(x) = phi(x) . omega over a box, as in App. B.2.6 of the
// DP-FTS-DE paper: evaluate `random_points` uniform points, then run L-BFGS-B (optim::DenseLbfgsb) from
// `starts` random points; keep the best of everything seen. The recipe is ScoreMaximiser's,
// given g and its gradient (same draws, same result).
#include <Eigen/Core>

#include "algorithms/rff/random_features.hpp"
#include "sim/core/box.hpp"
#include "sim/core/rng.hpp"

namespace fbosim::acq {

struct Candidate {
  Eigen::VectorXd x;  ///< the point (d-vector)
  double value;       ///< g(x)
};

class BoxMaximiser {
 public:
  struct Options {
    int random_points = 1000;
    int starts = 20;  ///< L-BFGS-B starts (the best random points are not reused as starts)
    int max_iterations = 30;
  };
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
