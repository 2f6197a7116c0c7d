#pragma once
// One agent's gp_box objective on the continuous box [0,1]^dim:
//   f_n(x) = fhat(x) + perturbation * g_n(x)
// with fhat the shared normalised base (BoxBase) and g_n an independent RFF GP sample of the same
// length scale and unit variance: the continuous analogue of the grid's +-d (App. B.1.1), with
// perturbation the standard deviation of f_n(x) - fhat(x) at every x.
#include <memory>
#include <optional>

#include "datasets/objective.hpp"
#include "datasets/synthetic/box_base.hpp"

namespace fbosim::datasets {

class BoxObjective final : public Objective {
 public:
  /// Draws g_n (when perturbation > 0) and 256 extra search points from rng, and estimates the
  /// optimum: the best of f_n over the base's candidates and those points, the four best refined
  /// by projected_ascent. It is an estimate (a lower bound of the true max, usually tight).
  static std::shared_ptr<const BoxObjective> draw(std::shared_ptr<const BoxBase> base,
                                                  double perturbation, double noise_var,
                                                  core::RngStream& rng);

  const core::Domain& domain() const override { return domain_; }
  /// ~2 K dim flops and 2 K cosines (K = BoxBase::kFeatures); x must be a dim-vector.
  double evaluate(const Eigen::VectorXd& x) const override;
  double observe(const Eigen::VectorXd& x, core::RngStream& rng) const override;
  std::optional<double> optimum() const override { return optimum_; }

  double value_and_gradient(const Eigen::VectorXd& x, Eigen::VectorXd& grad) const;

 private:
  BoxObjective(std::shared_ptr<const BoxBase> base, double perturbation, double noise_var);

  std::shared_ptr<const BoxBase> base_;
  core::Domain domain_;
  RffFunction g_;
  double amplitude_;
  double noise_sd_;
  double optimum_ = 1.0;
};

}  // namespace fbosim::datasets
