#pragma once
// Standard Thompson sampling on the whole domain, alone (FTS sec. 5.2: "standard TS, i.e., no
// communication with other agents"): init_points uniform points, then a local TS step every
// round. It makes the histories of FTS's source agents (their own BO tasks, App. D.2.1).
#include <vector>

#include "algorithms/agents/local_thompson.hpp"
#include "algorithms/protocol/agent_policy.hpp"

namespace fbosim::agents {

class TsAgent final : public protocol::AgentPolicy {
 public:
  /// domain: must outlive the agent.
  TsAgent(int id, const core::Domain& domain, int init_points, LocalTsOptions options);

  std::vector<Eigen::VectorXd> initial_points(core::RngStream& rng) const override;
  protocol::Proposal propose(int round, const protocol::Broadcast& broadcast, core::RngStream& rng,
                             const core::RngFactory& streams) override;
  void observe(const Eigen::VectorXd& x, double y) override { ts_.observe(x, y); }
  std::optional<protocol::Message> report(int, core::RngStream&) override { return std::nullopt; }

 private:
  const core::Domain& domain_;
  int init_points_;
  LocalThompson ts_;
};

}  // namespace fbosim::agents
