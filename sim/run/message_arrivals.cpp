#include "sim/run/message_arrivals.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::run {

timeline::DeliverySpec delivery_spec(const config::NetworkSpec& network) {
  const config::LatencySpec& l = network.latency;
  timeline::DeliverySpec d;
  if (l.distribution == "constant")
    d.latency = timeline::LatencyKind::constant;
  else if (l.distribution == "uniform")
    d.latency = timeline::LatencyKind::uniform;
  else if (l.distribution == "exponential")
    d.latency = timeline::LatencyKind::exponential;
  else
    throw std::invalid_argument(
        fmt::format("network.latency.distribution must be constant, uniform or exponential, got {}",
                    l.distribution));
  d.mean = l.mean;
  d.min = l.min;
  d.max = l.max;
  d.dropout = network.dropout;
  return d;
}

MessageArrivals::MessageArrivals(const config::NetworkSpec& network, core::RngFactory streams)
    : delivery_(delivery_spec(network), streams) {}

void MessageArrivals::send(int agent, int evaluation, timeline::Tick complete) {
  if (const auto at = delivery_.arrival(agent, evaluation, complete))
    transit_.emplace(*at, agent, evaluation);
}

std::optional<timeline::Tick> MessageArrivals::next_time() const {
  if (transit_.empty()) return std::nullopt;
  return std::get<0>(transit_.top());
}

Arrival MessageArrivals::take() {
  if (transit_.empty()) throw std::logic_error("MessageArrivals::take: nothing in transit");
  const auto [time, agent, evaluation] = transit_.top();
  transit_.pop();
  return {time, agent, evaluation};
}

}  // namespace fbosim::run
