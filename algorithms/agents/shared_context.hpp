#pragma once
// Everything the agents of one run share and never modify: the domain, the shared random
// features of the messages (FTS and DP-FTS-DE give every agent the same features, drawn
// once per run from a seed common to all agents), their values on the grid, and the sub-region
// partition.
#include <memory>
#include <mutex>
#include <vector>

#include <Eigen/Core>

#include "algorithms/acquisition/acquisition_method.hpp"
#include "algorithms/acquisition/box_maximiser.hpp"
#include "algorithms/de/partition.hpp"
#include "algorithms/gp/kernel.hpp"
#include "algorithms/rff/random_features.hpp"
#include "core/box.hpp"

namespace fbosim::agents {

struct SharedContext {
  SharedContext(core::Domain domain, rff::RandomFeatures features, de::Partition partition);

  core::Domain domain;
  rff::RandomFeatures features;  ///< shared RFF of the messages (M features)
  de::Partition partition;
  std::vector<core::Box> region_boxes;  ///< box of every sub-region
  /// Grid domains only: grid_features is G x M (phi of every grid point, one per row) and
  /// region_points[i] lists the grid rows inside sub-region i.
  Eigen::MatrixXd grid_features;
  std::vector<std::vector<int>> region_points;

  /// phi(x) on the shared features (M-vector): the grid row's features on a grid domain (x
  /// must be a grid point, or the nearest is taken), else features.feature(x).
  Eigen::VectorXd feature(const Eigen::VectorXd& x) const;
  /// argmax over the domain of phi(x) . omega (M-vector): exhaustive on a grid (ties to the
  /// lowest row), else over the unit box by `how`: `maximiser` with draws from rng, or DIRECT.
  Eigen::VectorXd argmax(const Eigen::VectorXd& omega, const acq::BoxMaximiser& maximiser,
                         core::RngStream& rng, const acq::AcquisitionMethod& how = {}) const;
  /// Grid domains: the grid row maximising phi(x) . omegas[i[x]] (one M-vector per sub-region,
  /// i[x] the sub-region of x; ties to the lower region, then the lower row; -1 when no value
  /// compares greater than -infinity, e.g. all NaN). The server step of DP-FTS-DE (Algo. 2):
  /// the same for every agent of a round, so the latest answer is remembered and an equal
  /// `omegas` is answered from it (thread-safe; any caller gets the same row).
  Eigen::Index region_argmax(const std::vector<Eigen::VectorXd>& omegas) const;

 private:
  mutable std::mutex memo_mutex_;
  mutable std::vector<Eigen::VectorXd> memo_omegas_;
  mutable Eigen::Index memo_row_ = -1;
};

/// The shared random features of the messages (stream "rff.shared"): M features of dimension
/// dim and signal variance 1, of the agents' kernel family (gp.kernel), so that every agent's
/// message is a weight vector of the same features. Their length scales: `lengthscales`, one
/// per dimension (rff.lengthscales: each dimension's frequencies divided by its own, the
/// spectral density of the ARD kernel k((x - y) / l)), or when it is empty the one
/// `lengthscale` (rff.lengthscale). The isotropic SE default draws exactly as before gp.kernel
/// existed. The messages' length scales are fixed by the config, not learnt: gp.ard is the
/// agents' own fits only, and neither key implies the other.
rff::RandomFeatures shared_features(int dim, int M, double lengthscale,
                                    const std::vector<double>& lengthscales,
                                    const gp::KernelChoice& kernel, core::RngStream& rng);

}  // namespace fbosim::agents
