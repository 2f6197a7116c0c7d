#include "algorithms/rff/grid_features.hpp"

#include <cmath>
#include <complex>

namespace fbosim::rff {

namespace {
constexpr Eigen::Index kFeatureAnchor = 64;

bool equally_spaced_1d(const Eigen::MatrixXd& grid) {
  if (grid.cols() != 1 || grid.rows() < 3) return false;
  const double h = grid(1, 0) - grid(0, 0);
  if (!(h > 0)) return false;
  for (Eigen::Index j = 1; j < grid.rows(); ++j)
    if (std::abs(grid(j, 0) - grid(0, 0) - static_cast<double>(j) * h) > 1e-12) return false;
  return true;
}
}  // namespace

Eigen::MatrixXd grid_features(const RandomFeatures& features, const Eigen::MatrixXd& grid) {
  if (!equally_spaced_1d(grid)) return features.features(grid);
  const Eigen::Index G = grid.rows();
  const Eigen::Index M = features.size();
  const double x0 = grid(0, 0);
  const double h = grid(1, 0) - grid(0, 0);
  Eigen::MatrixXd phi(G, M);
  for (Eigen::Index i = 0; i < M; ++i) {
    const double s = features.frequencies()(i, 0);
    const double b = features.phases()(i);
    const std::complex<double> step = std::polar(1.0, s * h);
    std::complex<double> z;
    for (Eigen::Index j = 0; j < G; ++j) {
      if (j % kFeatureAnchor == 0) z = std::polar(1.0, s * (x0 + static_cast<double>(j) * h) + b);
      phi(j, i) = z.real();
      z *= step;
    }
  }
  // Normalise each row to squared norm signal_var (the sqrt(2/M) factor cancels).
  const Eigen::VectorXd norms = phi.rowwise().norm();
  const double scale = std::sqrt(features.signal_var());
  for (Eigen::Index j = 0; j < G; ++j) phi.row(j) *= scale / norms[j];
  return phi;
}

}  // namespace fbosim::rff
