#pragma once
// DP as a wrapper around a linear aggregator (house rule 6; DP-FTS-DE Algo. 1 lines 5-13): the
// round's M-vector messages are subsampled, clipped and summed with the aggregator's weights
// divided by the sampling fraction, and Gaussian noise is added (DpMechanism); the release
// carries the subsampled-Gaussian event. The aggregator only supplies the weights.
// With adaptive clipping the mechanism holds the clip norm C_t between rounds (AdaptiveClip): a
// mechanism is built per run and released once per round, in order.
#include <memory>
#include <optional>

#include "algorithms/protocol/mechanism.hpp"
#include "algorithms/server/adaptive_clip.hpp"
#include "algorithms/server/dp_mechanism.hpp"

namespace fbosim::server {

class PrivatizedMechanism final : public protocol::Mechanism {
 public:
  /// Throws std::invalid_argument for invalid options (DpMechanism's checks).
  PrivatizedMechanism(std::shared_ptr<const protocol::LinearAggregator> aggregator,
                      DpMechanism::Options options);

  /// Every message must be an RffSample of aggregator.features() floats (else
  /// std::invalid_argument naming the agent).
  protocol::Release release(const protocol::Inbox& messages, int round,
                            core::RngStream& rng) const override;
  /// The trusted server's release with age weights (DpMechanism::release_scaled): the noise of
  /// the unscaled weights, the same event.
  protocol::Release release_scaled(const protocol::Inbox& messages, int round, core::RngStream& rng,
                                   const std::vector<double>& scale) const override;
  /// DpMechanism::release_pool (central: release_with, as release() and release_scaled()).
  protocol::Release release_pool(const protocol::Inbox& messages, int round, core::RngStream& rng,
                                 const std::vector<bool>& pool,
                                 const std::vector<double>* scale) const override;
  /// Under `local`: the message privatised by its sender (DpMechanism::local_message, stream
  /// `agent.local` (agent, evaluation)); otherwise as is.
  std::shared_ptr<const protocol::Message> send(std::shared_ptr<const protocol::Message> message,
                                                const core::RngFactory& streams, int agent,
                                                int evaluation) const override;
  privacy::DpEvent event(int population) const override;

  const DpMechanism& mechanism() const { return dp_; }

 private:
  protocol::Release release_with(const protocol::Inbox& messages, int round, core::RngStream& rng,
                                 const std::vector<double>* scale) const;
  /// The Release of a trust model's WeightedRelease (its charges; NoBroadcast when aborted).
  static protocol::Release charged(WeightedRelease w);

  std::shared_ptr<const protocol::LinearAggregator> aggregator_;
  DpMechanism::Options options_;
  DpMechanism dp_;
  // C_t of adaptive clipping (none: fixed). Mutable: release() is the round's step of the run
  // that owns this mechanism, and C_t is that run's state.
  mutable std::optional<AdaptiveClip> adaptive_;
};

/// Releases the aggregator's broadcast as is, spending nothing (a NoOp event): FTS, FTS-DE and
/// the peer forwarding of FTS's target-agent setting, none of which claims privacy.
class PlainMechanism final : public protocol::Mechanism {
 public:
  explicit PlainMechanism(std::shared_ptr<const protocol::Aggregator> aggregator);
  protocol::Release release(const protocol::Inbox& messages, int round,
                            core::RngStream& rng) const override;
  /// LinearAggregator::aggregate_scaled (std::logic_error for another aggregator).
  protocol::Release release_scaled(const protocol::Inbox& messages, int round, core::RngStream& rng,
                                   const std::vector<double>& scale) const override;
  privacy::DpEvent event(int population) const override;

 private:
  std::shared_ptr<const protocol::Aggregator> aggregator_;
};

}  // namespace fbosim::server
