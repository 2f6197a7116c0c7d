#include "algorithms/gp/hyper_sampler.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "algorithms/gp/kernel_likelihood.hpp"
#include "algorithms/gp/marginal_likelihood.hpp"

namespace fbosim::gp {

double GammaPrior::log_density(double x) const { return (shape - 1.0) * std::log(x) - rate * x; }

namespace {

// log p(theta) + log |d theta / d u| at u = log theta for one Gamma-distributed coordinate:
// (a - 1) u - b e^u + u.
double log_prior_in_log(const GammaPrior& g, double u) { return g.log_density(std::exp(u)) + u; }

// The box of the options in u = log theta, coordinates (l_1 .. l_p, signal_var, noise_var).
void log_box(const HyperSampler::Options& o, Eigen::Index p, Eigen::VectorXd& lo,
             Eigen::VectorXd& hi) {
  lo.resize(p + 2);
  hi.resize(p + 2);
  lo.head(p).setConstant(std::log(o.min_lengthscale));
  hi.head(p).setConstant(std::log(o.max_lengthscale));
  lo.tail(2) << std::log(o.min_signal_var), std::log(o.min_noise_var);
  hi.tail(2) << std::log(o.max_signal_var), std::log(o.max_noise_var);
}

}  // namespace

double HyperSampler::log_posterior(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                   KernelFamily family, const Eigen::VectorXd& u) const {
  const Eigen::Index p = u.size() - 2;
  const double minus_inf = -std::numeric_limits<double>::infinity();
  Eigen::VectorXd lo, hi;
  log_box(options_, p, lo, hi);
  if (!((u.array() >= lo.array()).all() && (u.array() <= hi.array()).all())) return minus_inf;
  double lp = 0.0;
  for (Eigen::Index k = 0; k < p; ++k) lp += log_prior_in_log(options_.lengthscale, u[k]);
  lp +=
      log_prior_in_log(options_.signal_var, u[p]) + log_prior_in_log(options_.noise_var, u[p + 1]);
  if (!std::isfinite(lp)) return minus_inf;
  if (y.size() == 0) return lp;
  const KernelHyper h{family, u.head(p).array().exp().matrix(), std::exp(u[p]), std::exp(u[p + 1])};
  const double lml = log_marginal_likelihood(X, y, h);
  return std::isfinite(lml) ? lml + lp : minus_inf;
}

Eigen::MatrixXd HyperSampler::chain(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                    const KernelHyper& start, core::RngStream& rng) const {
  const Eigen::Index p = start.lengthscales.size();
  if (p != 1 && (y.size() == 0 || p != X.cols()))
    throw std::invalid_argument("HyperSampler: need one length scale or one per dimension");
  Eigen::VectorXd u0(p + 2), lo, hi;
  u0 << start.lengthscales.array().log().matrix(), std::log(start.signal_var),
      std::log(start.noise_var);
  log_box(options_, p, lo, hi);
  u0 = u0.cwiseMax(lo).cwiseMin(hi);
  if (!std::isfinite(log_posterior(X, y, start.family, u0))) u0[p + 1] = hi[p + 1];
  // The isotropic SE kernel (the default experiment's) takes the tiled fast path with the
  // squared distances computed once: the same density, several times faster.
  const bool fast = start.family == KernelFamily::se && p == 1 && y.size() > 0;
  const Eigen::MatrixXd D = fast ? squared_distances(X, X) : Eigen::MatrixXd();
  LmlWorkspace ws;
  const auto log_f = [&](const Eigen::VectorXd& u) {
    if (!fast || !((u.array() >= lo.array()).all() && (u.array() <= hi.array()).all()))
      return log_posterior(X, y, start.family, u);
    const double lp = log_prior_in_log(options_.lengthscale, u[0]) +
                      log_prior_in_log(options_.signal_var, u[1]) +
                      log_prior_in_log(options_.noise_var, u[2]);
    if (!std::isfinite(lp)) return -std::numeric_limits<double>::infinity();
    const double lml = log_marginal_likelihood_sq(
        D, y, {std::exp(u[0]), std::exp(u[1]), std::exp(u[2])}, nullptr, ws);
    return std::isfinite(lml) ? lml + lp : -std::numeric_limits<double>::infinity();
  };
  const Eigen::MatrixXd kept =
      SliceSampler().chain(log_f, u0, options_.samples, options_.burn_in, options_.thin, rng);
  return kept.array().exp().matrix();
}

KernelHyper HyperSampler::sample(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                 const KernelHyper& start, core::RngStream& rng) const {
  const Eigen::VectorXd mean = chain(X, y, start, rng).colwise().mean().transpose();
  const Eigen::Index p = start.lengthscales.size();
  return {start.family, mean.head(p), mean[p], mean[p + 1]};
}

}  // namespace fbosim::gp
