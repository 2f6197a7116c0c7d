#include "algorithms/ensemble/taf_weights.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace fbosim::ensemble {

long discordant_pairs(const Eigen::VectorXd& mean, const Eigen::VectorXd& y) {
  if (mean.size() != y.size())
    throw std::invalid_argument("discordant_pairs: mean and y must have the same size");
  long count = 0;
  const Eigen::Index n = y.size();
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index k = 0; k < n; ++k)
      if (k != j) count += (mean[j] > mean[k]) != (y[j] > y[k]);
  return count;
}

double taf_distance(const Eigen::VectorXd& mean, const Eigen::VectorXd& y, Variant variant) {
  const double n = static_cast<double>(y.size());
  if (y.size() < 2)
    throw std::invalid_argument("taf_distance: need n >= 2 target points, got " +
                                std::to_string(y.size()));
  const double pairs = n * (n - 1.0);
  const double D = static_cast<double>(discordant_pairs(mean, y));
  return variant == Variant::authors ? std::sqrt(D) / pairs : D / pairs;
}

double epanechnikov(double dist, double rho) {
  if (!(rho > 0.0) || !std::isfinite(rho))
    throw std::invalid_argument("epanechnikov: rho must be finite and > 0, got " +
                                std::to_string(rho));
  const double r = dist / rho;
  return r <= 1.0 ? 0.75 * (1.0 - r * r) : 0.0;
}

Eigen::VectorXd taf_weights(const std::vector<SourcePosterior>& sources,
                            const rff::RandomFeatures& features, const Eigen::MatrixXd& X,
                            const Eigen::VectorXd& y, Variant variant, double rho) {
  const Eigen::Index N = static_cast<Eigen::Index>(sources.size());
  if (X.rows() != y.size() || X.cols() != features.dim())
    throw std::invalid_argument("taf_weights: X must be n x " + std::to_string(features.dim()) +
                                " and y an n-vector");
  epanechnikov(0.0, rho);  // validates rho
  Eigen::VectorXd w = Eigen::VectorXd::Zero(N + 1);
  w[N] = 0.75;
  if (y.size() < 2) return w;
  const Eigen::MatrixXd Phi = features.features(X);  // n x M, shared by all sources
  for (Eigen::Index m = 0; m < N; ++m) {
    const SourcePosterior& s = sources[static_cast<std::size_t>(m)];
    if (s.size() != features.size())
      throw std::invalid_argument("taf_weights: a source has M = " + std::to_string(s.size()) +
                                  ", the features M = " + std::to_string(features.size()));
    w[m] = epanechnikov(taf_distance(s.mean(Phi), y, variant), rho);
  }
  return w;
}

}  // namespace fbosim::ensemble
