#pragma once
// The target agent of FTS, Algorithm 1 (Dai, Low & Jaillet, NeurIPS 2020): in iteration t,
// with probability p_t it maximises a sample of its own GP posterior (line 4, via
// LocalThompson); otherwise it samples a source agent n from P_N (uniform over the sources with
// a message by default, as every experiment of sec. 5; `target.source_weights` gives any other
// P_N, sec. 3.1) and maximises phi(x)^T omega_n (line 6). p_t follows an exploration
// schedule with p_1 = p_2 (sec. 5.1: 1 - 1/sqrt(t); sec. 5.2: 1 - 1/t^2). beta_t = 1 (sec. 5):
// the posterior sample is not rescaled.
//   Simple setting (sec. 3.1): one message per source, received before iteration 1; a source
//   whose sample was used is removed from P_N (P_N renormalised); when none is left, line 4.
//   General setting (App. D.2.1): fresh samples every round; sources are never removed.
// Stragglers (sources without a message) have P_N[n] = 0 (sec. 3.1).
#include <memory>
#include <vector>

#include "algorithms/agents/exploration_schedule.hpp"
#include "algorithms/agents/local_thompson.hpp"
#include "algorithms/agents/shared_context.hpp"
#include "algorithms/protocol/agent_policy.hpp"

namespace fbosim::agents {

/// p_t of FTS Algorithm 1: the schedule's value at max(t, 2), so that p_1 = p_2 (FTS sec. 5).
double fts_own_probability(ExplorationSchedule schedule, int t);

/// Line 6's draw of a source from P_N restricted to `available` (agent ids with a usable
/// sample, ascending) and renormalised there (FTS sec. 3.1: a used source's P_N[n] is set to 0
/// and P_N renormalised). `weights` empty: uniform, one uniform_int draw (the default P_N[n] =
/// 1/N of sec. 5); else P_N[n] proportional to weights[n] (indexed by agent id), one uniform()
/// draw inverted on the cumulative weights. Returns -1 when every available source has weight
/// 0 (no draw is made): line 4's own step then, as with no source left.
int draw_source(const std::vector<int>& available, const std::vector<double>& weights,
                core::RngStream& rng);

struct FtsTargetOptions {
  int init_points = 1;                                           ///< random initial inputs (sec. 5)
  ExplorationSchedule schedule = ExplorationSchedule::inv_sqrt;  ///< 1 - p_t (p_1 = p_2)
  bool reuse_sources = false;  ///< general setting: sources are never removed from P_N
  /// P_N up to normalisation, one weight >= 0 per agent id (the target's own is ignored);
  /// empty: uniform over the sources (target.source_weights).
  std::vector<double> source_weights;
  LocalTsOptions local;  ///< line 4's own step (also its GP hyperparameter fits)
};

class FtsTargetAgent final : public protocol::AgentPolicy {
 public:
  /// context: the shared features (the sources' omega are on them) and the domain.
  FtsTargetAgent(int id, std::shared_ptr<const SharedContext> context, FtsTargetOptions options);

  std::vector<Eigen::VectorXd> initial_points(core::RngStream& rng) const override;
  /// Reads any PeerMessages first (keeping each source's latest sample), then line 2-7. The
  /// coin is drawn every round; then the source's index; then the maximiser's draws.
  protocol::Proposal propose(int t, const protocol::Broadcast& broadcast, core::RngStream& rng,
                             const core::RngFactory& streams) override;
  void observe(const Eigen::VectorXd& x, double y) override { ts_.observe(x, y); }
  std::optional<protocol::Message> report(int, core::RngStream&) override { return std::nullopt; }

  /// Sources whose sample is available (received and, in the simple setting, not used).
  std::vector<int> available() const;
  int peer_steps() const { return peer_steps_; }

 private:
  void receive(const protocol::Broadcast& broadcast);

  int id_;
  std::shared_ptr<const SharedContext> ctx_;
  FtsTargetOptions options_;
  LocalThompson ts_;
  std::vector<std::shared_ptr<const protocol::Message>> samples_;  // latest per agent id
  std::vector<bool> used_;
  int peer_steps_ = 0;
};

}  // namespace fbosim::agents
