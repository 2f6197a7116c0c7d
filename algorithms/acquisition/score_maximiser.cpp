#include "algorithms/acquisition/score_maximiser.hpp"

#include "algorithms/optim/dense_lbfgsb.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>

namespace fbosim::acq {

Eigen::VectorXd finite_difference_gradient(const std::function<double(const Eigen::VectorXd&)>& f,
                                           const Eigen::VectorXd& x, const Eigen::VectorXd& lo,
                                           const Eigen::VectorXd& hi, double h) {
  Eigen::VectorXd grad(x.size());
  Eigen::VectorXd probe = x;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const double up = std::min(x[j] + h, hi[j]);
    const double down = std::max(x[j] - h, lo[j]);
    if (!(up > down)) {
      grad[j] = 0.0;
      continue;
    }
    probe[j] = up;
    const double f_up = f(probe);
    probe[j] = down;
    const double f_down = f(probe);
    probe[j] = x[j];
    grad[j] = (f_up - f_down) / (up - down);
  }
  return grad;
}

namespace {
// -score for L-BFGS-B (which minimises). The score is evaluated at the point clamped into the box,
// so every point recorded lies in the box even when a line-search step rounds past a bound; the
// best point evaluated anywhere (random points, starts, line-search trials, difference probes) is
// kept. Mirrors BoxMaximiser's NegatedObjective.
class NegatedScore {
 public:
  NegatedScore(const ScoreMaximiser::Score& score, const core::Box& box, double fd_step,
               ScoreMaximiser::Result& best)
      : score_(score), box_(box), fd_step_(fd_step), best_(best), xc_(box.lo) {}

  double record(const Eigen::VectorXd& x, Eigen::VectorXd* grad) {
    const double g = score_.value(x, grad);
    if (g > best_.value) {
      best_.value = g;
      best_.x = x;
    }
    return g;
  }

  double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
    xc_ = x.cwiseMax(box_.lo).cwiseMin(box_.hi);
    double g;
    if (score_.has_gradient) {
      g = record(xc_, &grad);
    } else {
      g = record(xc_, nullptr);
      grad = finite_difference_gradient(
          [this](const Eigen::VectorXd& p) { return record(p, nullptr); }, xc_, box_.lo, box_.hi,
          fd_step_);
    }
    grad = -grad;
    return -g;
  }

 private:
  const ScoreMaximiser::Score& score_;
  const core::Box& box_;
  double fd_step_;
  ScoreMaximiser::Result& best_;
  Eigen::VectorXd xc_;
};
}  // namespace

ScoreMaximiser::ScoreMaximiser(Options options) : options_(options) {
  if (options_.random_points < 0 || options_.starts < 0 || options_.max_iterations < 0)
    throw std::invalid_argument(
        "ScoreMaximiser: random_points, starts, max_iterations must be >= 0");
  if (!(options_.fd_step > 0.0))
    throw std::invalid_argument("ScoreMaximiser: fd_step must be > 0, got " +
                                std::to_string(options_.fd_step));
}

ScoreMaximiser::Result ScoreMaximiser::maximise(const Score& score, const core::Box& box,
                                                core::RngStream& rng) const {
  const int d = box.dim();
  if (!score.value) throw std::invalid_argument("ScoreMaximiser::maximise: score has no value()");
  if (d < 1 || box.hi.size() != d)
    throw std::invalid_argument("ScoreMaximiser::maximise: box.lo and box.hi must be d-vectors");
  if (!(box.lo.array() <= box.hi.array()).all())
    throw std::invalid_argument("ScoreMaximiser::maximise: need box.lo <= box.hi");
  const Eigen::VectorXd width = box.hi - box.lo;
  Result best{0.5 * (box.lo + box.hi), -std::numeric_limits<double>::infinity()};

  // Uniform random points, drawn row by row (the same draws as BoxMaximiser).
  if (options_.random_points > 0) {
    Eigen::MatrixXd X = rng.uniform_matrix(options_.random_points, d) * width.asDiagonal();
    X.rowwise() += box.lo.transpose();
    X = X.cwiseMin(box.hi.transpose().replicate(X.rows(), 1));  // guard lo + u w rounding up
    Eigen::VectorXd g(X.rows());
    if (score.batch) {
      g = score.batch(X);
      if (g.size() != X.rows())
        throw std::invalid_argument("ScoreMaximiser::maximise: batch score returned " +
                                    std::to_string(g.size()) + " values for " +
                                    std::to_string(X.rows()) + " points");
    } else {
      for (Eigen::Index j = 0; j < X.rows(); ++j) g[j] = score.value(X.row(j).transpose(), nullptr);
    }
    for (Eigen::Index j = 0; j < g.size(); ++j) {
      if (g[j] > best.value) {
        best.value = g[j];
        best.x = X.row(j).transpose();
      }
    }
  }

  // L-BFGS-B from random starts. A failed line search (it throws) only ends that start;
  // the points it evaluated still count.
  optim::DenseLbfgsb::Param param;
  param.max_iterations = options_.max_iterations;
  // At most d correction pairs (LBFGSpp's default is 6, scipy's 10): on these 1-4-dimensional
  // boxes more pairs found no better maxima (300 maximisations each, with LBFGSpp's solver).
  param.m = std::min(param.m, d);
  optim::DenseLbfgsb solver(param);
  NegatedScore objective(score, box, options_.fd_step, best);
  Eigen::VectorXd x(d);
  for (int k = 0; k < options_.starts; ++k) {
    for (int j = 0; j < d; ++j) x[j] = box.lo[j] + rng.uniform() * width[j];
    double fx = 0.0;
    try {
      solver.minimize(objective, x, fx, box.lo, box.hi);
    } catch (const std::exception&) {
      // nothing to undo: the objective has already recorded every point it evaluated
    }
  }

  if (best.value == -std::numeric_limits<double>::infinity())
    best.value = score.value(best.x, nullptr);  // nothing evaluated (or all NaN): the centre
  return best;
}

}  // namespace fbosim::acq
