#pragma once
// How one agent acts in the rounds of a run (design note "protocols"; limbo's policies): the
// engine calls initial_points in round 0 and propose in every later round, evaluates the
// point, hands the observation to observe, and asks for a report when a server collects
// messages. Every draw comes from the streams the engine hands in (house rule 2).
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "algorithms/protocol/broadcast.hpp"
#include "core/rng.hpp"

namespace fbosim::protocol {

/// The next query and where it came from: the trace's `source` column ("local": the agent's
/// own Thompson-sampling step; "server": the server's broadcast; "peer": one peer's sample;
/// "ensemble": an acquisition over the agent's and its peers' models).
struct Proposal {
  Eigen::VectorXd x;  ///< d-vector in the domain
  const char* source = "local";
};

class AgentPolicy {
 public:
  virtual ~AgentPolicy() = default;
  /// Round 0: the initial design (each a d-vector); rng is the agent's "agent.init" stream. An
  /// agent that only reports returns none.
  virtual std::vector<Eigen::VectorXd> initial_points(core::RngStream& rng) const = 0;
  /// Round t >= 1: the next query given the latest broadcast (NoBroadcast when none was
  /// received). rng is the agent's "agent.step" stream of the round; `streams` gives streams
  /// keyed otherwise (hyperparameter fits).
  virtual Proposal propose(int round, const Broadcast& broadcast, core::RngStream& rng,
                           const core::RngFactory& streams) = 0;
  /// Records an observation y at x.
  virtual void observe(const Eigen::VectorXd& x, double y) = 0;
  /// The message for the server after round `round`'s observations, or nothing; rng is the
  /// agent's "agent.message" stream of the round. Called only when a server collects.
  virtual std::optional<Message> report(int round, core::RngStream& rng) = 0;
  /// false for an agent that never queries and only reports (an FTS source agent in the
  /// simple setting): the engine then calls neither initial_points nor propose.
  virtual bool optimises() const { return true; }
  /// Times a posterior sample fell back to a data-independent draw (printed after a run).
  virtual int fallbacks() const { return 0; }
};

}  // namespace fbosim::protocol
