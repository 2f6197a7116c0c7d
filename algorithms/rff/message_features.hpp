#pragma once
// The shared random features of the agents' messages (DP-FTS-DE eq. 2; FTS eqs. 2-3) as a
// config sets them: rff.features, rff.lengthscale, rff.lambda. Each system keeps the three
// values where its own code needs them (FtsDeConfig, FtsTargetConfig) and mounts this group
// through a lens that gathers them (schema::Group::include), so the keys are declared once.
#include "sim/schema/fwd.hpp"

namespace fbosim::rff {

struct MessageFeatures {
  int features = 0;        ///< M (the host's value is the default)
  double lengthscale = 0;  ///< their SE length scale
  double lambda = 0;       ///< lambda of eq. 2: the messages' regulariser
};

/// rff.features, rff.lengthscale, rff.lambda.
const schema::Group<MessageFeatures>& message_feature_keys();

}  // namespace fbosim::rff
