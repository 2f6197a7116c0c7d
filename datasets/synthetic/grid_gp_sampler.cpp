#include "datasets/synthetic/grid_gp_sampler.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include <Eigen/Cholesky>

#include "core/cancellation.hpp"

namespace fbosim::datasets {

GridGpSampler::GridGpSampler(int points, double lengthscale) {
  if (points < 2) throw std::invalid_argument("GridGpSampler: points must be >= 2");
  if (!(lengthscale > 0) || !std::isfinite(lengthscale))
    throw std::invalid_argument("GridGpSampler: lengthscale must be finite and > 0");
  const Eigen::Index n = points;
  grid_.resize(n, 1);
  for (Eigen::Index j = 0; j < n; ++j) grid_(j, 0) = static_cast<double>(j) / (n - 1);
  Eigen::MatrixXd k(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    core::throw_if_cancelled();  // n exps per row: 10^4 rows take about a second
    for (Eigen::Index j = 0; j < n; ++j) {
      const double d = (grid_(i, 0) - grid_(j, 0)) / lengthscale;
      k(i, j) = std::exp(-0.5 * d * d);
    }
  }
  // One factorisation cannot be polled (10^4 points take tens of seconds): Ctrl-C during it is
  // the watchdog's (sim/output/interrupt.hpp); between attempts it stops here.
  for (int attempt = 0; attempt < 5; ++attempt, jitter_ *= 10) {  // 1e-8 .. 1e-4
    core::throw_if_cancelled();
    Eigen::MatrixXd kj = k;
    kj.diagonal().array() += jitter_;
    const Eigen::LLT<Eigen::MatrixXd> llt(kj);
    if (llt.info() != Eigen::Success) continue;
    chol_ = llt.matrixL();
    if ((chol_.diagonal().array() > 0).all() && chol_.allFinite()) return;
  }
  throw std::runtime_error("GridGpSampler: Cholesky of the SE kernel failed for l = " +
                           std::to_string(lengthscale));
}

Eigen::VectorXd GridGpSampler::sample(core::RngStream& rng) const {
  const Eigen::VectorXd z = rng.normal_vector(grid_.rows());
  return chol_.triangularView<Eigen::Lower>() * z;
}

Eigen::VectorXd min_max_normalise(const Eigen::VectorXd& v) {
  const double lo = v.minCoeff(), hi = v.maxCoeff();
  if (!(hi > lo)) return Eigen::VectorXd::Zero(v.size());
  return (v.array() - lo) / (hi - lo);
}

}  // namespace fbosim::datasets
