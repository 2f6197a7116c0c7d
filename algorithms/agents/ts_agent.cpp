#include "algorithms/agents/ts_agent.hpp"

namespace fbosim::agents {

TsAgent::TsAgent(int id, const core::Domain& domain, int init_points, LocalTsOptions options)
    : domain_(domain), init_points_(init_points), ts_(id, domain, options, init_points) {}

std::vector<Eigen::VectorXd> TsAgent::initial_points(core::RngStream& rng) const {
  std::vector<Eigen::VectorXd> points;
  const core::Box unit = core::Box::unit(domain_.dim);
  for (int k = 0; k < init_points_; ++k) points.push_back(random_point(domain_, unit, rng));
  return points;
}

protocol::Proposal TsAgent::propose(int /*round*/, const protocol::Broadcast& /*broadcast*/,
                                    core::RngStream& rng, const core::RngFactory& streams) {
  protocol::Proposal p{ts_.step(rng, streams), "local"};
  // [code]: a repeated query is replaced by a uniformly random point.
  if (ts_.already_queried(p.x)) p.x = random_point(domain_, core::Box::unit(domain_.dim), rng);
  return p;
}

}  // namespace fbosim::agents
