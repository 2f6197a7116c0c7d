#include "algorithms/acquisition/box_maximiser.hpp"

#include <LBFGSB.h>

#include <exception>
#include <limits>
#include <stdexcept>

namespace fbosim::acq {

namespace {
// -g for LBFGSpp. g is evaluated at the point clamped into the box, so every point recorded
// lies in the box even when a line-search step rounds past a bound; the best point evaluated
// anywhere (random points, starts, line-search trials) is kept.
class NegatedObjective {
 public:
  NegatedObjective(const rff::RandomFeatures& features, const Eigen::VectorXd& omega,
                   const core::Box& box, Candidate& best)
      : features_(features), omega_(omega), box_(box), best_(best), xc_(box.lo) {}

  double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
    xc_ = x.cwiseMax(box_.lo).cwiseMin(box_.hi);
    const double g = features_.value(xc_, omega_, &grad, ws_);
    if (g > best_.value) {
      best_.value = g;
      best_.x = xc_;
    }
    grad = -grad;
    return -g;
  }

 private:
  const rff::RandomFeatures& features_;
  const Eigen::VectorXd& omega_;
  const core::Box& box_;
  Candidate& best_;
  Eigen::VectorXd xc_;
  rff::RandomFeatures::Workspace ws_;
};
}  // namespace

Candidate BoxMaximiser::maximise(const rff::RandomFeatures& features, const Eigen::VectorXd& omega,
                                 const core::Box& box, core::RngStream& rng) const {
  const int d = box.dim();
  if (features.dim() != d || omega.size() != features.size() || box.hi.size() != d)
    throw std::invalid_argument("BoxMaximiser::maximise: dimensions do not match");
  if (!(box.lo.array() <= box.hi.array()).all())
    throw std::invalid_argument("BoxMaximiser::maximise: need box.lo <= box.hi");
  const Eigen::VectorXd width = box.hi - box.lo;
  Candidate best{0.5 * (box.lo + box.hi), -std::numeric_limits<double>::infinity()};

  // App. B.2.6: uniform random points, evaluated in one vectorised pass.
  if (options_.random_points > 0) {
    Eigen::MatrixXd X = rng.uniform_matrix(options_.random_points, d) * width.asDiagonal();
    X.rowwise() += box.lo.transpose();
    X = X.cwiseMin(box.hi.transpose().replicate(X.rows(), 1));  // guard lo + u w rounding up
    const Eigen::VectorXd g = features.values(X, omega);
    for (Eigen::Index j = 0; j < g.size(); ++j) {
      if (g[j] > best.value) {
        best.value = g[j];
        best.x = X.row(j).transpose();
      }
    }
  }

  // App. B.2.6: L-BFGS-B from random starts. A failed line search (LBFGSpp throws) only ends
  // that start; the points it evaluated still count.
  LBFGSpp::LBFGSBParam<double> param;
  param.max_iterations = options_.max_iterations;
  LBFGSpp::LBFGSBSolver<double> solver(param);
  NegatedObjective objective(features, omega, box, best);
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
    best.value = features.value(best.x, omega);  // nothing evaluated (or all NaN): the centre
  return best;
}

}  // namespace fbosim::acq
