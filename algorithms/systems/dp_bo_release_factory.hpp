#pragma once
// The choice of dp_bo's release strategy, in a file of its own: the one place that knows every
// strategy, so that the base (dp_bo_release.hpp) includes none of them.
#include <memory>

#include "algorithms/systems/dp_bo_config.hpp"
#include "algorithms/systems/dp_bo_release.hpp"

namespace fbosim::systems {

/// The strategy `config.mechanism` names; throws std::invalid_argument for settings it cannot
/// release with.
std::unique_ptr<const DpBoRelease> make_dp_bo_release(const DpBoConfig& config);

}  // namespace fbosim::systems
