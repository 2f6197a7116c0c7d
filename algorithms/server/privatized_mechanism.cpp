#include "algorithms/server/privatized_mechanism.hpp"

#include <stdexcept>

namespace fbosim::server {

PrivatizedMechanism::PrivatizedMechanism(
    std::shared_ptr<const protocol::LinearAggregator> aggregator, DpMechanism::Options options)
    : aggregator_(std::move(aggregator)),
      options_(options),
      dp_(options, aggregator_->features()) {}

protocol::Release PrivatizedMechanism::release(const protocol::Inbox& messages, int round,
                                               core::RngStream& rng) const {
  const auto population = static_cast<int>(messages.size());
  Messages vectors(messages.size(), nullptr);
  for (int n = 0; n < population; ++n)
    if (const auto& m = messages[static_cast<std::size_t>(n)])
      vectors[static_cast<std::size_t>(n)] = &protocol::sample_of(*m, n, aggregator_->features());
  WeightedRelease w = dp_.release(vectors, aggregator_->weights(round, population), rng);
  if (!w.event) throw std::logic_error("DP release without a privacy event");
  return {protocol::RegionSamples{std::move(w.omegas)}, w.stats, *w.event};
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

privacy::DpEvent PlainMechanism::event(int /*population*/) const {
  return privacy::DpEvent::noop();
}

}  // namespace fbosim::server
