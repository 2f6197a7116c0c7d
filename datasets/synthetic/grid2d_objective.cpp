#include "datasets/synthetic/grid2d_objective.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace fbosim::datasets {

Grid2dObjective::Grid2dObjective(std::shared_ptr<const core::Domain> domain, int side,
                                 Eigen::VectorXd values, double noise_var)
    : domain_(std::move(domain)),
      side_(side),
      values_(std::move(values)),
      noise_sd_(std::sqrt(noise_var)) {
  if (!domain_ || domain_->dim != 2 || side < 2 ||
      domain_->grid.rows() != static_cast<Eigen::Index>(side) * side ||
      values_.size() != domain_->grid.rows())
    throw std::invalid_argument(
        "Grid2dObjective: needs a side x side grid with one value per point");
  if (!(noise_var >= 0)) throw std::invalid_argument("Grid2dObjective: noise_var must be >= 0");
  optimum_ = values_.maxCoeff();
}

double Grid2dObjective::observe(const Eigen::VectorXd& x, core::RngStream& rng) const {
  return evaluate(x) + noise_sd_ * rng.normal();
}

Eigen::Index Grid2dObjective::index_of(const Eigen::VectorXd& x) const {
  if (x.size() != 2 || !x.allFinite())
    throw std::invalid_argument("Grid2dObjective: x must be a finite 2-vector");
  const double last = side_ - 1;
  const auto i = std::lround(std::clamp(x[0], 0.0, 1.0) * last);
  const auto j = std::lround(std::clamp(x[1], 0.0, 1.0) * last);
  return static_cast<Eigen::Index>(i + side_ * j);
}

Eigen::MatrixXd unit_square_grid(int side) {
  if (side < 2) throw std::invalid_argument("unit_square_grid: side must be >= 2");
  const Eigen::Index k = side;
  Eigen::MatrixXd g(k * k, 2);
  for (Eigen::Index j = 0; j < k; ++j)
    for (Eigen::Index i = 0; i < k; ++i) {
      g(i + k * j, 0) = static_cast<double>(i) / (k - 1);
      g(i + k * j, 1) = static_cast<double>(j) / (k - 1);
    }
  return g;
}

Eigen::VectorXd sample_grid2d(int side, double lengthscale, double input_norm,
                              core::RngStream& rng) {
  if (side < 2) throw std::invalid_argument("sample_grid2d: side must be >= 2");
  if (!(lengthscale > 0 && std::isfinite(lengthscale)))
    throw std::invalid_argument("sample_grid2d: lengthscale must be > 0");
  if (!(input_norm >= 0 && std::isfinite(input_norm)))
    throw std::invalid_argument("sample_grid2d: input_norm must be >= 0");
  const Eigen::Index k = side;
  // The centred unit grid's largest norm is that of a corner, sqrt(2) / 2: the scale to
  // input_norm multiplies every distance, i.e. divides the length scale.
  const double scale = input_norm > 0 ? input_norm / (std::sqrt(2.0) / 2) : 1.0;
  const double l = lengthscale / scale;  // in unit-square coordinates
  Eigen::MatrixXd K(k, k);
  for (Eigen::Index a = 0; a < k; ++a)
    for (Eigen::Index b = 0; b < k; ++b) {
      const double d = static_cast<double>(a - b) / (k - 1) / l;
      K(a, b) = std::exp(-0.5 * d * d);
    }
  Eigen::MatrixXd L;
  double jitter = 1e-8;
  for (int attempt = 0; attempt < 5 && L.size() == 0; ++attempt, jitter *= 10) {
    Eigen::MatrixXd Kj = K;
    Kj.diagonal().array() += jitter;
    const Eigen::LLT<Eigen::MatrixXd> llt(Kj);
    if (llt.info() == Eigen::Success && llt.matrixLLT().diagonal().allFinite() &&
        (llt.matrixLLT().diagonal().array() > 0).all())
      L = llt.matrixL();
  }
  if (L.size() == 0)
    throw std::runtime_error("sample_grid2d: Cholesky of the SE kernel failed for l = " +
                             std::to_string(lengthscale));
  const Eigen::MatrixXd Z = rng.normal_matrix(k, k);
  // F(i, j) = f at (i, j): cov(F(i, j), F(i', j')) = K(i, i') K(j, j').
  const Eigen::MatrixXd F = L * Z * L.transpose();
  Eigen::VectorXd f(k * k);
  for (Eigen::Index j = 0; j < k; ++j)
    for (Eigen::Index i = 0; i < k; ++i) f[i + k * j] = F(i, j);
  return f;
}

}  // namespace fbosim::datasets
