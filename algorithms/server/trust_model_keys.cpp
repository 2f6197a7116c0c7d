#include "algorithms/server/trust_model.hpp"
#include "schema/group.hpp"

namespace fbosim::server {

const schema::Group<TrustOptions>& trust_keys() {
  using T = TrustOptions;
  using schema::Range;
  static const auto g =
      schema::Group<T>{}
          .choice("server.trust", &T::trust, kTrustNames,
                  "[choice] what the server may see (docs/TRUST.md): `central` (DP-FTS-DE: a "
                  "trusted server sees the selected messages and adds the noise), `distributed` "
                  "(secure aggregation: the server sees only the sum, the agents add noise shares "
                  "of variance sigma^2 / m), `local` (each agent adds noise of std z_local x "
                  "2 S / sqrt(P) to its own message). Not `central`: one privacy ledger per "
                  "agent (agents.csv), adaptive clipping and server.budget refused. Under every "
                  "schedule.kind; under an asynchronous one the shares are set by each release's "
                  "pool and local noise is added once per message sent")
          .choice("server.sampled_by", &T::sampled_by, kSamplerNames,
                  "[choice] `server`: the server draws the selection and knows who is in the sum "
                  "(no amplification against it: every agent summed is charged a Gaussian at "
                  "q = 1); `agents`: each agent draws a secret coin and every agent joins the "
                  "secure sum (a zero vector and its share when the coin says no), so the "
                  "subsampled accounting holds against the server; needs server.sampling: "
                  "poisson")
          .real("server.dropout_padding", &T::dropout_padding, Range::right_open(0, 1),
                "rho in [0, 1): each noise share carries sigma^2 / ((1 - rho) m - c), and a "
                "release with fewer than (1 - rho) m survivors is aborted (nothing broadcast, "
                "nobody charged). 0: shares of sigma^2 / (m - c), and the survivors are charged "
                "at the noise actually summed (less than sigma when agents drop out)")
          .integer("server.colluders", &T::colluders, Range::at_least(0),
                   "c >= 0: agents assumed to collude with the server (they know their own "
                   "shares): the shares are scaled by m / (m - c) so that the others' carry "
                   "sigma^2, and only the shares of survivors beyond c count as noise")
          .applies_when(
              {"server.sampled_by", "server.dropout_padding", "server.colluders"}, "server.trust",
              [](const T& t) { return t.trust == Trust::distributed; }, "server.trust: distributed")
          .real("server.local_z", &T::local_z, Range::above(0),
                "z_local > 0: each agent's noise std is z_local x 2 S / sqrt(P) (the clip "
                "ball's diameter: local DP hides any change of the vector); each message sent "
                "is a Gaussian release of noise multiplier z_local, charged to its sender")
          .boolean("server.local_coin", &T::local_coin,
                   "true: each agent draws a secret coin with probability server.sampling_rate "
                   "and every agent always sends, its noisy clipped vector when the coin says "
                   "yes and the noise alone when it says no (the server cannot tell), instead of "
                   "the server selecting who sends; each message is charged to its sender as the "
                   "coin's amplified release under replace-one (docs/TRUST.md); needs "
                   "server.sampling: poisson and an accountant for FixedSampled (rdp)")
          .applies_when(
              {"server.local_z", "server.local_coin"}, "server.trust",
              [](const T& t) { return t.trust == Trust::local; }, "server.trust: local");
  return g;
}

}  // namespace fbosim::server
