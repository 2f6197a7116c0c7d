#pragma once
// The server's side of a round (design note "protocols"; house rule 6, DP by wrapping): an
// Aggregator turns the round's messages into a broadcast (no randomness, no privacy); a
// Mechanism releases a broadcast together with the privacy event it spent. Plain(Aggregator)
// releases a NoOp event; the DP wrapper of a LinearAggregator subsamples, clips, aggregates and
// adds noise, and releases the subsampled-Gaussian event (algorithms/server).
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/protocol/broadcast.hpp"
#include "core/rng.hpp"

namespace fbosim::protocol {

/// Per-round bookkeeping of the server (server.csv).
struct RoundStats {
  int received = 0;                  ///< messages that reached the server in time
  int selected = 0;                  ///< messages used after subsampling
  int clipped = 0;                   ///< selected messages whose norm exceeded the clip bound
  double noise_std = 0.0;            ///< std of the Gaussian noise per coordinate (0 without DP)
  long long floats = 0;              ///< floats received (the communication cost of FTS sec. 3.2)
  long long floats_per_message = 0;  ///< floats of the largest message received
  /// Whether the server aggregated this round's messages (false from the round a stop rule
  /// ended aggregation on: server.budget, server.stop_p; the run engine sets it).
  bool aggregating = true;
  double clip_norm = 0.0;  ///< the clip norm C_t of the round (adaptive clipping)
};

/// A column of server.csv, filled from RoundStats; an algorithm names the ones it keeps.
enum class StatColumn {
  received,
  selected,
  clipped,
  noise_std,
  floats,
  floats_per_message,
  aggregating,  ///< 1 or 0; only where a stop rule is configured (the columns stay as they were)
  clip_norm     ///< C_t; only with adaptive clipping (server.clipping); empty once stopped
};
/// The column's header name ("received", ..., "floats_per_message", "aggregating", "clip_norm").
std::string to_string(StatColumn column);
/// The column's value as server.csv writes it.
std::string format_stat(StatColumn column, const RoundStats& stats);

/// One event charged to some agents' ledgers (issue 42: without a trusted server each agent is
/// charged the event of what the adversary learns about it).
struct AgentCharge {
  privacy::DpEvent event;
  std::vector<int> agents;  ///< ascending; ignored when `everyone`
  bool everyone = false;
};

/// A release's charges per agent, against two adversaries: the server (the `epsilon` columns)
/// and an observer of the broadcasts only (agents.csv's epsilon_broadcast). Empty vectors: the
/// release charges nobody (an aborted secure sum).
struct AgentCharges {
  std::vector<AgentCharge> server;
  std::vector<AgentCharge> broadcast;
};

/// Calls charge(agent, event) for every agent of every charge in order (`everyone`: agents 0 ..
/// population - 1); throws std::out_of_range for an agent outside [0, population).
template <class Charge>
void for_each_charge(const std::vector<AgentCharge>& charges, int population, Charge&& charge) {
  for (const AgentCharge& c : charges) {
    if (c.everyone) {
      for (int n = 0; n < population; ++n) charge(n, c.event);
      continue;
    }
    for (const int n : c.agents) {
      if (n < 0 || n >= population) throw std::out_of_range("a charge to an agent out of range");
      charge(n, c.event);
    }
  }
}

/// One round's release: what is broadcast, the bookkeeping and the privacy event spent
/// (house rule 4: privacy is data; NoOp when nothing private was released).
struct Release {
  Broadcast broadcast;
  RoundStats stats;
  /// Central: the event every agent is charged. With `charges`: the trust model's nominal
  /// event (PrivacyPlan::round), charged to nobody as such.
  privacy::DpEvent event;
  /// The per-agent charges of a trust model other than `central` (server.trust); absent: every
  /// agent is charged `event`.
  std::optional<AgentCharges> charges;
};

class Aggregator {
 public:
  virtual ~Aggregator() = default;
  /// The broadcast for the round's messages; fills the stats it knows (received, floats).
  virtual Broadcast aggregate(const Inbox& messages, int round, RoundStats& stats) const = 0;
};

/// An aggregator whose broadcast is linear in M-vector messages (RffSample): vector i of the
/// broadcast is sum_n W(i, n) omega_n with W = weights(round, N) (P x N, rows summing to 1).
/// Only linear aggregators can be privatised by clipping and Gaussian noise.
class LinearAggregator : public Aggregator {
 public:
  /// P x N weights of round `round` for a population of N agents; finite, >= 0, rows sum to 1.
  virtual Eigen::MatrixXd weights(int round, int population) const = 0;
  /// M, the length of every message and broadcast vector.
  virtual int features() const = 0;
  /// P, the rows of weights(): one per sub-region (the clip bound S / sqrt(P) of a message
  /// that its sender privatises, docs/TRUST.md). The default asks weights(0, 1).
  virtual int regions() const;
  /// Without privacy [choice]: each row of W is renormalised over the messages that arrived,
  /// so the broadcast stays a weighted average (with every message present this is exactly
  /// sum_n W(i, n) omega_n); nothing arrived: NoBroadcast (the agents fall back to local steps).
  Broadcast aggregate(const Inbox& messages, int round, RoundStats& stats) const override;
  /// The same with column n of W multiplied by scale[n] in (0, 1] before the renormalisation
  /// over arrivals (the asynchronous schedules' age weights without privacy, docs/TIME.md).
  /// Throws std::invalid_argument for a scale of another length or outside (0, 1].
  Broadcast aggregate_scaled(const Inbox& messages, int round, RoundStats& stats,
                             const std::vector<double>& scale) const;

 private:
  Broadcast weighted_average(const Inbox& messages, Eigen::MatrixXd w, RoundStats& stats) const;
};

class Mechanism {
 public:
  virtual ~Mechanism() = default;
  /// Releases the round's broadcast; every draw from rng (the "server" stream of the round).
  virtual Release release(const Inbox& messages, int round, core::RngStream& rng) const = 0;
  /// The same with agent n's message weighted by scale[n] in (0, 1] (the asynchronous
  /// schedules' age weights, docs/TIME.md), the same event. The default throws
  /// std::logic_error: a mechanism that cannot weight its messages (config refuses age weights
  /// for algorithms without AlgorithmTraits::age_weights).
  virtual Release release_scaled(const Inbox& messages, int round, core::RngStream& rng,
                                 const std::vector<double>& scale) const;
  /// An asynchronous schedule's release (docs/TIME.md, docs/TRUST.md): pool[n] says whether
  /// agent n has a message in it by the time line (public; a pool agent's message may be
  /// missing only if lost), `scale` the age weights or null. The default is release() or
  /// release_scaled(), the pool unused: a trusted server treats a missing message as an
  /// unselected agent. A trust model sums over the pool (its shares are set by the pool's public
  /// counts) or, local, sums messages its senders already privatised (send()).
  virtual Release release_pool(const Inbox& messages, int round, core::RngStream& rng,
                               const std::vector<bool>& pool,
                               const std::vector<double>* scale) const;
  /// What agent `agent`'s message of evaluation `evaluation` is as it leaves the agent under an
  /// asynchronous schedule: local DP privatises it there, once (stream `agent.local` (agent,
  /// evaluation)), so that a release of it, first or again, is post-processing. The default:
  /// the message as is.
  virtual std::shared_ptr<const Message> send(std::shared_ptr<const Message> message,
                                              const core::RngFactory& streams, int agent,
                                              int evaluation) const;
  /// The event one release composes for a population of N agents (NoOp when not private):
  /// config validation asks the accountants whether they support it before any run.
  virtual privacy::DpEvent event(int population) const = 0;
};

/// The M-vector of an RffSample message; throws std::invalid_argument naming the agent for a
/// message of another kind or length.
const Eigen::VectorXd& sample_of(const Message& message, int agent, int features);

}  // namespace fbosim::protocol
