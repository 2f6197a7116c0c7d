#pragma once
// Maximises any score over a box, the recipe of DP-FTS-DE App. B.2.6 (and the FTS authors'
// code's acq_max): evaluate `random_points` uniform points, then run L-BFGS-B (optim::DenseLbfgsb)
// from `starts` uniform random starts; keep the best point evaluated anywhere. The score is a
// callable, so the optimiser never sees a model (issue #11); without a gradient, L-BFGS-B is
// fed central finite differences. With score = phi(x) . omega and its gradient this consumes
// the stream and returns exactly what BoxMaximiser does (tested).
#include <functional>

#include <Eigen/Core>

#include "core/box.hpp"
#include "core/rng.hpp"

namespace fbosim::acq {

class ScoreMaximiser {
 public:
  struct Score {
    /// score(x) for a d-vector x; when has_gradient and grad is non-null it also writes
    /// d score / dx (a d-vector) into *grad. grad is null whenever only the value is needed.
    std::function<double(const Eigen::VectorXd& x, Eigen::VectorXd* grad)> value;
    bool has_gradient = false;
    /// Optional vectorised score: X m x d (one point per row) -> m-vector; used for the random
    /// points when set (value() row by row otherwise). Must agree with value().
    std::function<Eigen::VectorXd(const Eigen::MatrixXd& X)> batch;
  };
  struct Options {
    int random_points = 1000;
    int starts = 20;  ///< L-BFGS-B starts (the best random points are not reused as starts)
    int max_iterations = 30;
    double fd_step = 1e-6;  ///< finite-difference step (without a gradient), in units of x
  };
  struct Result {
    Eigen::VectorXd x;  ///< the best point (d-vector, inside the box)
    double value;       ///< its score
  };

  ScoreMaximiser() = default;
  explicit ScoreMaximiser(Options options);

  /// argmax over `box` of score; every draw comes from rng. Throws std::invalid_argument for
  /// an inverted box, mismatched dimensions or a score without value().
  Result maximise(const Score& score, const core::Box& box, core::RngStream& rng) const;

  const Options& options() const { return options_; }

 private:
  Options options_;
};

/// The Score of an object with value(x, grad) and batch(X) members (an acquisition held by
/// reference: it must outlive the Score).
template <class Scorer>
ScoreMaximiser::Score score_of(const Scorer& scorer) {
  ScoreMaximiser::Score s;
  s.has_gradient = true;
  s.value = [&scorer](const Eigen::VectorXd& x, Eigen::VectorXd* grad) {
    return scorer.value(x, grad);
  };
  s.batch = [&scorer](const Eigen::MatrixXd& X) { return scorer.batch(X); };
  return s;
}

/// Central differences of f at x inside [lo, hi] with step h: coordinate j uses
/// (f(x + h e_j) - f(x - h e_j)) / 2h, each side clipped to the box (one-sided at a bound;
/// 0 for a zero-width coordinate). This is the gradient the maximiser uses without one.
Eigen::VectorXd finite_difference_gradient(const std::function<double(const Eigen::VectorXd&)>& f,
                                           const Eigen::VectorXd& x, const Eigen::VectorXd& lo,
                                           const Eigen::VectorXd& hi, double h);

}  // namespace fbosim::acq
