#include "algorithms/systems/dp_bo_release_factory.hpp"

#include <stdexcept>

#include "algorithms/systems/kusner_lipschitz_release.hpp"
#include "algorithms/systems/kusner_release.hpp"
#include "algorithms/systems/papernot_steinke_release.hpp"

namespace fbosim::systems {

std::unique_ptr<const DpBoRelease> make_dp_bo_release(const DpBoConfig& config) {
  switch (config.mechanism) {
    case ReleaseMechanism::kusner:
      return std::make_unique<const KusnerRelease>(config);
    case ReleaseMechanism::papernot_steinke:
      return std::make_unique<const PapernotSteinkeRelease>(config);
    case ReleaseMechanism::kusner_lipschitz:
      return std::make_unique<const KusnerLipschitzRelease>(config);
  }
  throw std::logic_error("make_dp_bo_release: unknown mechanism");
}

}  // namespace fbosim::systems
