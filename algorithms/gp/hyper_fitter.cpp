#include "algorithms/gp/hyper_fitter.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include <LBFGSB.h>

#include "algorithms/gp/marginal_likelihood.hpp"

namespace fbosim::gp {

namespace {

SeHyper from_log(const Eigen::Vector3d& t) {
  return {std::exp(t[0]), std::exp(t[1]), std::exp(t[2])};
}

// Negative log marginal likelihood in log-hyperparameters, for LBFGSpp (which minimises).
class NegativeLml {
 public:
  NegativeLml(const Eigen::MatrixXd& D, const Eigen::VectorXd& y) : D_(D), y_(y) {}
  double operator()(const Eigen::VectorXd& t, Eigen::VectorXd& grad) {
    Eigen::Vector3d g;
    const double lml = log_marginal_likelihood_sq(D_, y_, from_log(t), &g);
    if (!std::isfinite(lml)) {
      // Not positive definite: a large value with a gradient pushing the noise up.
      grad = Eigen::Vector3d(0, 0, -1);
      return 1e100;
    }
    grad = -g;
    return -lml;
  }

 private:
  const Eigen::MatrixXd& D_;
  const Eigen::VectorXd& y_;
};

}  // namespace

SeHyper HyperFitter::fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, const SeHyper& start,
                         core::RngStream& rng) const {
  const Options& o = options_;
  const Eigen::Vector3d lb(std::log(o.min_lengthscale), std::log(o.min_signal_var),
                           std::log(o.min_noise_var));
  const Eigen::Vector3d ub(std::log(o.max_lengthscale), std::log(o.max_signal_var),
                           std::log(o.max_noise_var));
  const Eigen::MatrixXd D = squared_distances(X, X);
  NegativeLml objective(D, y);

  LBFGSpp::LBFGSBParam<double> param;
  param.max_iterations = o.max_iterations;
  LBFGSpp::LBFGSBSolver<double> solver(param);

  Eigen::Vector3d first(std::log(start.lengthscale), std::log(start.signal_var),
                        std::log(start.noise_var));
  first = first.cwiseMax(lb).cwiseMin(ub);
  Eigen::VectorXd grad(3);
  Eigen::VectorXd best = first;
  double best_value = objective(best, grad);

  // The start point, then `restarts` log-uniform points in the box (GPy's optimize_restarts).
  // All starts are drawn up front so the stream's use does not depend on the optimiser.
  std::vector<Eigen::VectorXd> starts{first};
  for (int r = 0; r < o.restarts; ++r) {
    Eigen::VectorXd t(3);
    for (int k = 0; k < 3; ++k) t[k] = rng.uniform(lb[k], ub[k]);
    starts.push_back(t);
  }
  for (Eigen::VectorXd t : starts) {
    double value = 0;
    try {
      solver.minimize(objective, t, value, lb, ub);
    } catch (const std::exception&) {
      // Line-search failures leave t at the last accepted point; evaluate it below.
    }
    t = t.cwiseMax(lb).cwiseMin(ub);
    value = objective(t, grad);
    if (value < best_value) {
      best_value = value;
      best = t;
    }
  }
  return from_log(best);
}

}  // namespace fbosim::gp
