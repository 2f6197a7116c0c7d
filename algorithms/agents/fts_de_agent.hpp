#pragma once
// One DP-FTS-DE agent (Algo. 2 of Dai, Low, Jaillet 2021):
// initialises in its sub-region, then each round either takes a local Thompson-sampling step
// (probability p_t) or maximises the server's broadcast g(x) = phi(x) . omega^(i[x]); after
// every round it reports the message omega ~ N(nu_t, lambda Sigma_t^-1) of eq. 2 on the shared
// features. TS, FTS, FTS-DE, DP-FTS and DP-FTS-DE all use this policy.
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "algorithms/agents/agent_options.hpp"
#include "algorithms/agents/shared_context.hpp"
#include "algorithms/protocol/agent_policy.hpp"
#include "algorithms/rff/blr_posterior.hpp"

namespace fbosim::agents {

class FtsDeAgent final : public protocol::AgentPolicy {
 public:
  FtsDeAgent(int id, std::shared_ptr<const SharedContext> context, AgentOptions options);

  /// Round 0: N_init uniform points in the agent's sub-region (whole domain without DE).
  std::vector<Eigen::VectorXd> initial_points(core::RngStream& rng) const override;
  /// Round t >= 1: a local step with probability p_t, or when no RegionSamples broadcast was
  /// received; else the maximiser of the broadcast. The coin is drawn in every round.
  protocol::Proposal propose(int t, const protocol::Broadcast& broadcast, core::RngStream& rng,
                             const core::RngFactory& streams) override;
  void observe(const Eigen::VectorXd& x, double y) override;
  /// The message omega (an RffSample of M floats) sampled from the posterior on the shared
  /// features.
  std::optional<protocol::Message> report(int round, core::RngStream& rng) override;
  int fallbacks() const override { return blr_.fallback_count(); }

  int id() const { return id_; }
  int region() const { return region_; }
  int observations() const { return static_cast<int>(ts_.outputs().size()); }
  const gp::SeHyper& hyper() const { return ts_.hyper(); }

 private:
  Eigen::VectorXd server_step(const protocol::RegionSamples& broadcast, core::RngStream& rng) const;

  int id_;
  int region_;
  std::shared_ptr<const SharedContext> ctx_;
  AgentOptions options_;
  LocalThompson ts_;       // the agent's data and its local TS step
  rff::BlrPosterior blr_;  // posterior on the shared features (messages)
};

}  // namespace fbosim::agents
