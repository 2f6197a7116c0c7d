#include "algorithms/systems/dp_bo_release.hpp"

#include <stdexcept>

#include "algorithms/systems/dp_bo_system.hpp"
#include "algorithms/systems/kusner_lipschitz_release.hpp"
#include "algorithms/systems/kusner_release.hpp"
#include "algorithms/systems/papernot_steinke_release.hpp"

namespace fbosim::systems {

protocol::ReleaseRow candidate_row(const TunedAgent& agent, const protocol::ReleaseInputs& in,
                                   Eigen::Index i, const std::string& quantity,
                                   const std::string& mechanism) {
  protocol::ReleaseRow row;
  row.agent = agent.agent;
  row.quantity = quantity;
  row.mechanism = mechanism;
  row.value = static_cast<double>(i);
  row.point = Eigen::VectorXd(agent.candidates->row(i).transpose());
  row.f = in.evaluate(agent.agent, *row.point);
  if (agent.optimum) row.regret = *agent.optimum - *row.f;
  return row;
}

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
