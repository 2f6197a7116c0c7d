#pragma once
// Reads the keys of the DP-FTS-DE family (ts, fts, fts_de, dp_fts, dp_fts_de) into an
// FtsDeSystem. The names are presets of the same keys (docs/CONFIG.md, "algorithm"):
//   ts         no server: every step is local TS (the DP-FTS-DE keys are read and unused)
//   fts        server, P = 1, no DP (server.dp: true or exploration.subregions > 1 is an error)
//   dp_fts     server, P = 1, DP (server.dp: false or P > 1 is an error)
//   fts_de     server, P >= 1, no DP: the paper's FTS-DE (server.dp: true is an error; issue 28:
//              until then fts_de was private by default, so a request for the non-private
//              algorithm silently got DP noise)
//   dp_fts_de  server, DP (server.dp: false is an error)
#include <memory>

#include "algorithms/protocol/algorithm.hpp"
#include "sim/config/config_reader.hpp"
#include "sim/config/experiment_spec.hpp"
#include "sim/config/resource_estimate.hpp"

namespace fbosim::config {

/// spec: the common keys, read already (name, algorithm, agents.count, ...).
std::shared_ptr<const protocol::Algorithm> read_fts_de(ConfigReader& r, const ExperimentSpec& spec);
/// Its memory and work for config validation.
void estimate_fts_de(const ExperimentSpec& spec, ResourceEstimate& e);

}  // namespace fbosim::config
