#pragma once
// A source agent of FTS's target-agent setting (Dai, Low & Jaillet 2020, sec. 3.1 and 3.2): it
// holds the t_n observations of its own BO task and sends information about its GP posterior
// on the shared random features (eqs. 2-3): one sample omega_n (FTS), or nu_n and Sigma_n^-1
// (the RGPE / TAF adaptations, sec. 3.2), with its incumbent for TAF.
//   Simple setting (the paper's main experiments): it sends once, before iteration 1 (after
//   round 0), and never queries.
//   General setting (App. D.2.1): before every iteration it runs one more step of its own BO
//   task (standard TS) and sends again, so t_n grows by one per round.
#include <memory>

#include "algorithms/agents/local_thompson.hpp"
#include "algorithms/agents/shared_context.hpp"
#include "algorithms/protocol/agent_policy.hpp"
#include "algorithms/protocol/algorithm.hpp"
#include "algorithms/rff/blr_posterior.hpp"

namespace fbosim::agents {

enum class SourceMessage { sample, summary, summary_with_incumbent };

struct FtsSourceOptions {
  SourceMessage message = SourceMessage::sample;
  bool general = false;          ///< keeps optimising and reporting every round
  double message_lambda = 1e-6;  ///< sigma^2 of eqs. 2-3 for the messages (rff.lambda)
  LocalTsOptions local;          ///< its own TS steps (general setting)
  int init_points = 0;           ///< the initial design of its own history (the fit schedule's)
};

class FtsSourceAgent final : public protocol::AgentPolicy {
 public:
  /// own: every observation it made (its own TS data); message: the observations its messages
  /// condition on (FTS's t_n points; the authors' code drops the initial design).
  FtsSourceAgent(int id, std::shared_ptr<const SharedContext> context, const protocol::History& own,
                 const protocol::History& message, FtsSourceOptions options);

  std::vector<Eigen::VectorXd> initial_points(core::RngStream&) const override { return {}; }
  /// General setting only (the engine never asks an agent that does not optimise).
  protocol::Proposal propose(int t, const protocol::Broadcast& broadcast, core::RngStream& rng,
                             const core::RngFactory& streams) override;
  void observe(const Eigen::VectorXd& x, double y) override;
  /// Simple setting: the message after round 0 only; general: after every round.
  std::optional<protocol::Message> report(int round, core::RngStream& rng) override;
  bool optimises() const override { return options_.general; }
  int fallbacks() const override { return blr_.fallback_count(); }

 private:
  std::shared_ptr<const SharedContext> ctx_;
  FtsSourceOptions options_;
  LocalThompson ts_;
  rff::BlrPosterior blr_;
  double incumbent_;
};

}  // namespace fbosim::agents
