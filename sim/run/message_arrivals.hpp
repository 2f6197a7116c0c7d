#pragma once
// The messages in transit from agents to the server on the time line (docs/TIME.md, "The
// network on the clock"): each reported message is sent at its evaluation's completion and
// arrives after its latency, or is lost (timeline::MessageDelivery, from network.latency.* and
// network.dropout read in seconds). Arrivals come out in (time, agent, evaluation) order: with
// no latency that is the time line's completion order (time, then agent), so today's plans are
// unchanged. A function of the network streams alone: the plan stays free of data.
#include <optional>
#include <queue>
#include <tuple>
#include <vector>

#include "core/rng.hpp"
#include "sim/config/experiment_spec.hpp"
#include "sim/timeline/message_delivery.hpp"

namespace fbosim::run {

/// One message that reaches the server.
struct Arrival {
  timeline::Tick time = 0;
  int agent = 0;
  int evaluation = 0;
  bool operator==(const Arrival&) const = default;
};

/// network.latency.* and network.dropout as the clock reads them (seconds, per message).
timeline::DeliverySpec delivery_spec(const config::NetworkSpec& network);

class MessageArrivals {
 public:
  MessageArrivals(const config::NetworkSpec& network, core::RngFactory streams);

  /// Agent n's message of evaluation k leaves at its completion `complete` (a lost one never
  /// arrives).
  void send(int agent, int evaluation, timeline::Tick complete);
  /// The instant of the next arrival, or nothing when none is in transit.
  std::optional<timeline::Tick> next_time() const;
  /// Takes the next arrival (call only when next_time() has one).
  Arrival take();

 private:
  using Entry = std::tuple<timeline::Tick, int, int>;  // (arrival, agent, evaluation)
  timeline::MessageDelivery delivery_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> transit_;
};

}  // namespace fbosim::run
