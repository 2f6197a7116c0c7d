#include "datasets/synthetic/grid_objective.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fbosim::datasets {

GridObjective::GridObjective(std::shared_ptr<const core::Domain> domain, Eigen::VectorXd values,
                             double noise_var)
    : domain_(std::move(domain)), values_(std::move(values)), noise_sd_(std::sqrt(noise_var)) {
  if (!domain_ || domain_->dim != 1 || domain_->grid.rows() != values_.size() || values_.size() < 2)
    throw std::invalid_argument("GridObjective: needs a 1-D grid with one value per point");
  if (!(noise_var >= 0)) throw std::invalid_argument("GridObjective: noise_var must be >= 0");
  optimum_ = values_.maxCoeff();
}

double GridObjective::observe(const Eigen::VectorXd& x, core::RngStream& rng) const {
  return evaluate(x) + noise_sd_ * rng.normal();
}

Eigen::Index GridObjective::index_of(const Eigen::VectorXd& x) const {
  if (x.size() != 1 || !std::isfinite(x[0]))
    throw std::invalid_argument("GridObjective: x must be a finite 1-vector");
  const double last = static_cast<double>(values_.size() - 1);
  // The grid is equally spaced, so the nearest point is a rounding, not a search.
  return static_cast<Eigen::Index>(std::lround(std::clamp(x[0], 0.0, 1.0) * last));
}

}  // namespace fbosim::datasets
