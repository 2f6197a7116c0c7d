#pragma once
// When the server stops aggregating (issue 29), two rules, each a function of the config alone
// (never of the agents' data, so the stop itself reveals nothing):
//   budget  a privacy budget: the server aggregates a round only if the epsilon of everything
//           released so far plus that round's release stays within it (the run engine asks
//           the run's accountant, server.accountant, at server.delta: it holds the ledger);
//   stop_p  DP-FTS-DE's footnote 13 (Dai, Low & Jaillet, NeurIPS 2021): "switch to local TS
//           after the value of 1 - p_t becomes so small ... that the probability of using the
//           information from the central server is negligible ..., after which no privacy loss
//           is incurred": the server stops once the agents would follow its broadcast with
//           probability 1 - p_{t+1} < stop_p.
// With both, the server stops at the first round either rule stops. After the stop the agents
// receive nothing and take their own TS step every round, as `ts` does.
#include <optional>

#include "schema/fwd.hpp"

namespace fbosim::server {

struct ServerStop {
  std::optional<double> budget;  ///< server.budget: epsilon > 0; none = no budget
  std::optional<double> stop_p;  ///< server.stop_p: in (0, 1]; none = never

  /// Whether a rule is configured (server.csv and summary.csv then carry `aggregating`).
  bool any() const { return budget.has_value() || stop_p.has_value(); }
};

/// server.budget and server.stop_p.
const schema::Group<ServerStop>& server_stop_keys();

}  // namespace fbosim::server
