#include "algorithms/server/privatized_mechanism.hpp"

#include <stdexcept>

namespace fbosim::server {

PrivatizedMechanism::PrivatizedMechanism(
    std::shared_ptr<const protocol::LinearAggregator> aggregator, DpMechanism::Options options)
    : aggregator_(std::move(aggregator)), options_(options), dp_(options, aggregator_->features()) {
  if (options_.clipping == Clipping::adaptive)
    adaptive_.emplace(options_.clip_norm, options_.clip_quantile, options_.clip_learning_rate,
                      options_.clip_count_noise);
}

protocol::Release PrivatizedMechanism::release(const protocol::Inbox& messages, int round,
                                               core::RngStream& rng) const {
  return release_with(messages, round, rng, nullptr);
}

protocol::Release PrivatizedMechanism::release_scaled(const protocol::Inbox& messages, int round,
                                                      core::RngStream& rng,
                                                      const std::vector<double>& scale) const {
  return release_with(messages, round, rng, &scale);
}

protocol::Release PrivatizedMechanism::release_with(const protocol::Inbox& messages, int round,
                                                    core::RngStream& rng,
                                                    const std::vector<double>* scale) const {
  const auto population = static_cast<int>(messages.size());
  Messages vectors(messages.size(), nullptr);
  for (int n = 0; n < population; ++n)
    if (const auto& m = messages[static_cast<std::size_t>(n)])
      vectors[static_cast<std::size_t>(n)] = &protocol::sample_of(*m, n, aggregator_->features());
  const Eigen::MatrixXd weights = aggregator_->weights(round, population);
  if (!adaptive_) {
    WeightedRelease w = scale
                            ? dp_.release_scaled(vectors, weights, *scale, rng, options_.clip_norm)
                            : dp_.release(vectors, weights, rng);
    if (w.charges) return charged(std::move(w));
    if (!w.event) throw std::logic_error("DP release without a privacy event");
    return {protocol::RegionSamples{std::move(w.omegas)}, w.stats, *w.event, {}};
  }
  // Andrew et al., Algorithm 1: clip with C_t, then release the noisy unclipped count (after the
  // messages' noise, from the same stream) and step to C_{t+1}. A non-finite message counts as
  // clipped (b_n = 0), as DpMechanism::clip replaces it.
  const double clip_norm = adaptive_->clip_norm();
  WeightedRelease w = scale ? dp_.release_scaled(vectors, weights, *scale, rng, clip_norm)
                            : dp_.release(vectors, weights, rng, clip_norm);
  if (!w.event) throw std::logic_error("DP release without a privacy event");
  w.stats.clip_norm = clip_norm;
  const double expected = dp_.sampling_fraction(messages.size()) * population;
  adaptive_->update(w.stats.selected - w.stats.clipped, expected, rng);
  return {protocol::RegionSamples{std::move(w.omegas)}, w.stats, *w.event, {}};
}

protocol::Release PrivatizedMechanism::release_pool(const protocol::Inbox& messages, int round,
                                                    core::RngStream& rng,
                                                    const std::vector<bool>& pool,
                                                    const std::vector<double>* scale) const {
  if (options_.trust.trust == Trust::central || adaptive_)
    return release_with(messages, round, rng, scale);
  const auto population = static_cast<int>(messages.size());
  Messages vectors(messages.size(), nullptr);
  for (int n = 0; n < population; ++n)
    if (const auto& m = messages[static_cast<std::size_t>(n)])
      vectors[static_cast<std::size_t>(n)] = &protocol::sample_of(*m, n, aggregator_->features());
  return charged(
      dp_.release_pool(vectors, aggregator_->weights(round, population), pool, scale, rng));
}

std::shared_ptr<const protocol::Message> PrivatizedMechanism::send(
    std::shared_ptr<const protocol::Message> message, const core::RngFactory& streams, int agent,
    int evaluation) const {
  if (options_.trust.trust != Trust::local || !message) return message;
  core::RngStream rng = streams.stream("agent.local", static_cast<std::uint64_t>(agent),
                                       static_cast<std::uint64_t>(evaluation));
  const Eigen::VectorXd& omega = protocol::sample_of(*message, agent, aggregator_->features());
  return std::make_shared<const protocol::Message>(
      protocol::RffSample{dp_.local_message(omega, aggregator_->regions(), rng)});
}

protocol::Release PrivatizedMechanism::charged(WeightedRelease w) {
  protocol::Release out;
  out.stats = w.stats;
  out.charges = std::move(w.charges);
  // An aborted secure sum or a local round where nothing arrived: no broadcast (the agents take
  // their own TS step), no event; the charges say whom the messages sent cost.
  if (w.omegas.empty()) return out;
  if (!w.event) throw std::logic_error("DP release without a privacy event");
  out.broadcast = protocol::RegionSamples{std::move(w.omegas)};
  out.event = *w.event;
  return out;
}

privacy::DpEvent PrivatizedMechanism::event(int population) const {
  return DpMechanism::event(options_, static_cast<std::size_t>(population));
}

PlainMechanism::PlainMechanism(std::shared_ptr<const protocol::Aggregator> aggregator)
    : aggregator_(std::move(aggregator)) {}

protocol::Release PlainMechanism::release(const protocol::Inbox& messages, int round,
                                          core::RngStream& /*rng*/) const {
  protocol::Release out;
  out.broadcast = aggregator_->aggregate(messages, round, out.stats);
  return out;
}

protocol::Release PlainMechanism::release_scaled(const protocol::Inbox& messages, int round,
                                                 core::RngStream& /*rng*/,
                                                 const std::vector<double>& scale) const {
  const auto* linear = dynamic_cast<const protocol::LinearAggregator*>(aggregator_.get());
  if (!linear) throw std::logic_error("age weights need a linear aggregator");
  protocol::Release out;
  out.broadcast = linear->aggregate_scaled(messages, round, out.stats, scale);
  return out;
}

privacy::DpEvent PlainMechanism::event(int /*population*/) const {
  return privacy::DpEvent::noop();
}

}  // namespace fbosim::server
