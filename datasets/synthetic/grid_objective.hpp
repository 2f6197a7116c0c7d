#pragma once
// An objective tabulated on the equally spaced 1-D grid x_j = j/(n-1) (the synthetic domain of
// App. B.1.1). The simulator may read values() and index_of() directly.
#include <memory>
#include <optional>

#include <Eigen/Core>

#include "datasets/objective.hpp"

namespace fbosim::datasets {

class GridObjective final : public Objective {
 public:
  /// domain: dim 1 with the n x 1 grid j/(n-1) (shared by the agents of one family);
  /// values[j] = f(x_j); noise_var >= 0.
  GridObjective(std::shared_ptr<const core::Domain> domain, Eigen::VectorXd values,
                double noise_var);

  const core::Domain& domain() const override { return *domain_; }
  /// f at the grid point nearest x; O(1).
  double evaluate(const Eigen::VectorXd& x) const override { return values_[index_of(x)]; }
  /// f(x) + N(0, noise_var); always one normal from rng, so streams stay aligned for any noise.
  double observe(const Eigen::VectorXd& x, core::RngStream& rng) const override;
  /// max_j f(x_j), exact on a finite domain.
  std::optional<double> optimum() const override { return optimum_; }

  const Eigen::VectorXd& values() const { return values_; }
  /// Index of the grid point nearest x (x: a finite 1-vector; outside [0,1] clamps to the
  /// nearest end). Throws std::invalid_argument otherwise.
  Eigen::Index index_of(const Eigen::VectorXd& x) const;
  double noise_var() const { return noise_sd_ * noise_sd_; }

 private:
  std::shared_ptr<const core::Domain> domain_;
  Eigen::VectorXd values_;
  double noise_sd_;
  double optimum_;
};

}  // namespace fbosim::datasets
