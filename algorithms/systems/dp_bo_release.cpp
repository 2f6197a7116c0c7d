#include "algorithms/systems/dp_bo_release.hpp"

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

}  // namespace fbosim::systems
