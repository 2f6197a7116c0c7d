#pragma once
// The shared random features of the agents' messages (DP-FTS-DE eq. 2; FTS eqs. 2-3) as a
// config sets them: rff.features, rff.lengthscales or rff.lengthscale, rff.lambda. Each system
// keeps the values where its own code needs them (FtsDeConfig, FtsTargetConfig) and mounts this
// group through a lens that gathers them (schema::Group::include), so the keys are declared once.
#include <vector>

#include "schema/fwd.hpp"
#include "schema/problem.hpp"

namespace fbosim::rff {

struct MessageFeatures {
  int features = 0;        ///< M (the host's value is the default)
  double lengthscale = 0;  ///< their one length scale (isotropic: the default)
  /// ARD: one length scale per input dimension (rff.lengthscales; empty: `lengthscale`).
  std::vector<double> lengthscales;
  double lambda = 0;  ///< lambda of eq. 2: the messages' regulariser
};

/// rff.features, rff.lengthscales, rff.lengthscale (read only when rff.lengthscales is not
/// given; giving both is an error), rff.lambda.
const schema::Group<MessageFeatures>& message_feature_keys();

/// The condition across keys of rff.lengthscales: none, or one per input dimension of the
/// objectives (`dimension`); a problem naming the key otherwise.
void check_message_lengthscales(const std::vector<double>& lengthscales, int dimension,
                                schema::Problems& out);

}  // namespace fbosim::rff
