#pragma once
// Keys several algorithms share, read the same way by each algorithm's reader: the shared
// random features of the messages (rff.*) and an agent's own Thompson-sampling step with its
// GP hyperparameters and acquisition maximiser (local_ts.*, gp.*, acquisition.*).
#include "algorithms/agents/local_thompson.hpp"
#include "sim/config/config_reader.hpp"

namespace fbosim::config {

/// The largest count any size key accepts.
inline constexpr int kMaxCount = 100000;

struct RffKeys {
  int features;        ///< rff.features (M)
  double lengthscale;  ///< rff.lengthscale
  double lambda;       ///< rff.lambda
};

/// rff.features, rff.lengthscale, rff.lambda (defaults from `keys`).
void read_rff(ConfigReader& r, RffKeys& keys);
/// local_ts.*, gp.*, acquisition.*; local_ts.method: exact only on a grid family
/// (objective_family gp_grid or heterogeneous).
void read_local_ts(ConfigReader& r, agents::LocalTsOptions& o, const std::string& objective_family);

}  // namespace fbosim::config
