#pragma once
// The shared part of the gp_box family: one RFF GP sample f on [0,1]^dim, min-max normalised
// approximately to [0,1], plus its best sampled points, from which each agent's optimum search
// starts. Drawn once per make_synthetic call and shared by all agents.
#include <memory>

#include <Eigen/Core>

#include "datasets/synthetic/rff_function.hpp"

namespace fbosim::datasets {

struct BoxBase {
  static constexpr int kFeatures = 1000;   ///< K of the RFF sample
  static constexpr int kCandidates = 256;  ///< best sampled points kept for the agents

  RffFunction f;
  double lengthscale = 0;
  double lo = 0, hi = 1;             ///< estimated min and max of f over [0,1]^dim
  Eigen::MatrixXd candidates;        ///< kCandidates x dim, best first
  Eigen::VectorXd candidate_values;  ///< value() at each candidate

  /// Draws f from rng, then samples P = clamp(2500 * 2^dim, 10^4, 2^16) uniform points (also
  /// from rng); lo and hi are the sampled min and max refined by projected_ascent from the four
  /// best (worst) points. They are estimates: value() lies in [0,1] up to the search's misses.
  static std::shared_ptr<const BoxBase> draw(int dim, double lengthscale, core::RngStream& rng);

  /// The normalised value (f(x) - lo) / (hi - lo).
  double value(const Eigen::VectorXd& x) const { return (f.value(x) - lo) * inv_range(); }
  double inv_range() const { return 1.0 / (hi - lo); }
  int dim() const { return f.dim(); }
};

}  // namespace fbosim::datasets
