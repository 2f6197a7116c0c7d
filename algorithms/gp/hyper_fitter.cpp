#include "algorithms/gp/hyper_fitter.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <vector>

#include "algorithms/gp/kernel_likelihood.hpp"
#include "algorithms/gp/marginal_likelihood.hpp"
#include "algorithms/optim/dense_lbfgsb.hpp"

namespace fbosim::gp {

namespace {

SeHyper from_log(const Eigen::Vector3d& t) {
  return {std::exp(t[0]), std::exp(t[1]), std::exp(t[2])};
}

// Negative log marginal likelihood in log-hyperparameters, for L-BFGS-B (which minimises).
class NegativeLml {
 public:
  NegativeLml(const Eigen::MatrixXd& D, const Eigen::VectorXd& y) : D_(D), y_(y) {}
  double operator()(const Eigen::VectorXd& t, Eigen::VectorXd& grad) {
    Eigen::Vector3d g;
    const double lml = log_marginal_likelihood_sq(D_, y_, from_log(t), &g, ws_);
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
  LmlWorkspace ws_;
};

// The negative log marginal likelihood of kernel_likelihood.hpp in (log l_1, ..., log l_p,
// log signal_var, log noise_var), for L-BFGS-B.
class NegativeKernelLml {
 public:
  NegativeKernelLml(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, KernelFamily family,
                    Eigen::Index p)
      : X_(X), y_(y), family_(family), p_(p) {}
  KernelHyper hyper(const Eigen::VectorXd& t) const {
    return {family_, t.head(p_).array().exp().matrix(), std::exp(t[p_]), std::exp(t[p_ + 1])};
  }
  double operator()(const Eigen::VectorXd& t, Eigen::VectorXd& grad) {
    const double lml = log_marginal_likelihood(X_, y_, hyper(t), &g_);
    if (!std::isfinite(lml)) {
      // Not positive definite: a large value with a gradient pushing the noise up.
      grad = Eigen::VectorXd::Zero(t.size());
      grad[p_ + 1] = -1;
      return 1e100;
    }
    grad = -g_;
    return -lml;
  }

 private:
  const Eigen::MatrixXd& X_;
  const Eigen::VectorXd& y_;
  KernelFamily family_;
  Eigen::Index p_;
  Eigen::VectorXd g_;
};

// L-BFGS-B from `first` (inside [lb, ub]) and from `restarts` points drawn log-uniformly in the
// box (GPy's optimize_restarts), all drawn up front so the stream's use does not depend on the
// optimiser; returns the best point found (never worse than `first`).
template <class Objective>
Eigen::VectorXd multi_start(Objective& objective, const Eigen::VectorXd& first,
                            const Eigen::VectorXd& lb, const Eigen::VectorXd& ub,
                            const HyperFitter::Options& o, core::RngStream& rng) {
  optim::DenseLbfgsb::Param param;
  param.max_iterations = o.max_iterations;
  // Stop once an iteration improves the LML by < 1e-7 relative (LBFGSpp's 1e-10 buys nothing
  // visible in the hyperparameters), and give up a line search after 10 trials (near an optimum
  // these fail on rounding; the default 20 only burns evaluations). Together ~15 % fewer
  // evaluations for the same optima on random 1-3-D problems.
  param.delta = 1e-7;
  param.max_linesearch = 10;
  optim::DenseLbfgsb solver(param);

  const Eigen::Index dim = first.size();
  Eigen::VectorXd grad(dim);
  Eigen::VectorXd best = first;
  double best_value = objective(best, grad);

  std::vector<Eigen::VectorXd> starts{first};
  for (int r = 0; r < o.restarts; ++r) {
    Eigen::VectorXd t(dim);
    for (Eigen::Index k = 0; k < dim; ++k) t[k] = rng.uniform(lb[k], ub[k]);
    starts.push_back(t);
  }
  for (Eigen::VectorXd t : starts) {
    double value = 0;  // minimize() leaves value = objective(t) when it returns normally
    bool failed = false;
    try {
      solver.minimize(objective, t, value, lb, ub);
    } catch (const std::exception&) {
      failed = true;
    }
    // After a line-search failure t is the last trial point, and rounding in the line search can
    // leave t just outside the box: then clamp and evaluate afresh.
    const Eigen::VectorXd inside = t.cwiseMax(lb).cwiseMin(ub);
    if (failed || inside != t) {
      t = inside;
      value = objective(t, grad);
    }
    if (value < best_value) {
      best_value = value;
      best = t;
    }
  }
  return best;
}

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
  Eigen::Vector3d first(std::log(start.lengthscale), std::log(start.signal_var),
                        std::log(start.noise_var));
  first = first.cwiseMax(lb).cwiseMin(ub);
  const Eigen::VectorXd best = multi_start(objective, first, lb, ub, o, rng);
  // exp(log(x)) may round just outside the box: clamp on the natural scale too.
  const SeHyper h = from_log(best);
  return {std::clamp(h.lengthscale, o.min_lengthscale, o.max_lengthscale),
          std::clamp(h.signal_var, o.min_signal_var, o.max_signal_var),
          std::clamp(h.noise_var, o.min_noise_var, o.max_noise_var)};
}

KernelHyper HyperFitter::fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                             const KernelHyper& start, core::RngStream& rng) const {
  const Options& o = options_;
  const Eigen::Index p = start.lengthscales.size();
  if (p != 1 && p != X.cols())
    throw std::invalid_argument("HyperFitter::fit: need one length scale or one per dimension");
  // The box per length scale as for the SE kernel; restarts draw every coordinate in turn.
  Eigen::VectorXd lb(p + 2), ub(p + 2), first(p + 2);
  lb.head(p).setConstant(std::log(o.min_lengthscale));
  ub.head(p).setConstant(std::log(o.max_lengthscale));
  lb.tail(2) << std::log(o.min_signal_var), std::log(o.min_noise_var);
  ub.tail(2) << std::log(o.max_signal_var), std::log(o.max_noise_var);
  first << start.lengthscales.array().log().matrix(), std::log(start.signal_var),
      std::log(start.noise_var);
  first = first.cwiseMax(lb).cwiseMin(ub);
  NegativeKernelLml objective(X, y, start.family, p);
  KernelHyper h = objective.hyper(multi_start(objective, first, lb, ub, o, rng));
  // exp(log(x)) may round just outside the box: clamp on the natural scale too.
  h.lengthscales = h.lengthscales.cwiseMax(o.min_lengthscale).cwiseMin(o.max_lengthscale);
  h.signal_var = std::clamp(h.signal_var, o.min_signal_var, o.max_signal_var);
  h.noise_var = std::clamp(h.noise_var, o.min_noise_var, o.max_noise_var);
  return h;
}

}  // namespace fbosim::gp
