#include "algorithms/server/personal_privacy.hpp"
#include "schema/group.hpp"

namespace fbosim::server {

const schema::Group<PersonalKeys>& personal_keys() {
  using K = PersonalKeys;
  using schema::Range;
  static const auto g =
      schema::Group<K>{}
          .real_list("personal.sampling_rates", &K::sampling_rates, Range::left_open(0, 1),
                     "q_n in (0, 1], one per agent (docs/TRUST.md \"Personal privacy\"): agent n "
                     "is selected by its own Poisson coin of probability q_n and charged the "
                     "subsampled Gaussian (q_n, z); the sum is divided by personal.q_ref, never "
                     "by q_n (under schedule.kind buffered every agent is charged at q = 1). Needs "
                     "server.sampling: poisson")
          .real_list("personal.budgets", &K::budgets, Range::above(0),
                     "epsilon_n > 0, one per agent, at server.delta under server.accountant: "
                     "agent n is charged every release it is eligible for, selected or not, and "
                     "stops being eligible before the release that would take it over its "
                     "budget (then local TS; docs/TRUST.md); under an asynchronous schedule.kind, "
                     "each release that holds its message")
          .real("personal.q_ref", &K::q_ref, Range::left_open(0, 1),
                "q_ref in (0, 1]: the public constant the weighted sum and the noise std are "
                "divided by (sensitivity w_max S / q_ref, noise std z w_max S / q_ref)")
          .note("the mean of the q_n")
          .real_list("personal.tiers.fractions", &K::tier_fractions, Range::left_open(0, 1),
                     "each tier's fraction of the agents (sum <= 1; the rest keep "
                     "server.sampling_rate and no budget); exact sizes, drawn once per seed from "
                     "the stream personal.tier as timing.tiers (docs/TIME.md)")
          .real_list("personal.tiers.sampling_rates", &K::tier_rates, Range::left_open(0, 1),
                     "q of each tier, one per fraction")
          .real_list("personal.tiers.budgets", &K::tier_budgets, Range::above(0),
                     "epsilon of each tier, one per fraction");
  return g;
}

}  // namespace fbosim::server
