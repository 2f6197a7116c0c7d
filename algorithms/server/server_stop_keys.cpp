#include "algorithms/server/server_stop.hpp"
#include "schema/group.hpp"

namespace fbosim::server {

const schema::Group<ServerStop>& server_stop_keys() {
  using S = ServerStop;
  using schema::Range;
  static const auto g =
      schema::Group<S>{}
          .real("server.budget", &S::budget, Range::above(0),
                "[choice] a privacy budget: epsilon > 0 at server.delta under the run's "
                "`server.accountant` (the accountant of the `epsilon` column). Before each round "
                "the server computes the epsilon the run would reach with that round's release "
                "(its subsampled Gaussian); from the first round that would exceed the budget on "
                "it aggregates nothing and the agents take local TS steps (as `ts`), so the "
                "run's epsilon stays <= budget. A budget below one round's epsilon: no round "
                "aggregates (epsilon 0). Under an asynchronous schedule.kind the check is made "
                "before "
                "each planned release, on the largest per-agent epsilon with that release's "
                "charges (docs/TIME.md). Needs DP (`dp_fts`, `dp_fts_de`). server.csv and "
                "summary.csv then carry an `aggregating` column")
          .note("none")
          .real("server.stop_p", &S::stop_p, Range::left_open(0, 1),
                "[choice] DP-FTS-DE's footnote 13: the server stops aggregating once the agents "
                "would follow its broadcast with probability 1 - p_{t+1} < stop_p "
                "(exploration.schedule: `inv_sqrt` stops after round ~1/stop_p^2, `inv` after "
                "~1/stop_p); every later round is local TS and spends no privacy. Saves the "
                "privacy (and messages) of rounds whose broadcast is rarely used, changing utility "
                "little. With server.budget: the first round either rule stops. Under an "
                "asynchronous schedule.kind the release index takes the round's place: releases "
                "0 .. round - 1 at most. Not for `ts`")
          .note("none");
  return g;
}

}  // namespace fbosim::server
