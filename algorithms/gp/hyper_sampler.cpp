#include "algorithms/gp/hyper_sampler.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "algorithms/gp/kernel_likelihood.hpp"

namespace fbosim::gp {

double GammaPrior::log_density(double x) const { return (shape - 1.0) * std::log(x) - rate * x; }

namespace {

// log p(theta) + log |d theta / d u| at u = log theta for one Gamma-distributed coordinate:
// (a - 1) u - b e^u + u.
double log_prior_in_log(const GammaPrior& g, double u) { return g.log_density(std::exp(u)) + u; }

}  // namespace

double HyperSampler::log_posterior(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                   KernelFamily family, const Eigen::VectorXd& u) const {
  const Eigen::Index p = u.size() - 2;
  const double minus_inf = -std::numeric_limits<double>::infinity();
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
  Eigen::VectorXd u0(p + 2);
  u0 << start.lengthscales.array().log().matrix(), std::log(start.signal_var),
      std::log(start.noise_var);
  const auto log_f = [&](const Eigen::VectorXd& u) { return log_posterior(X, y, start.family, u); };
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
