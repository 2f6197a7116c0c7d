#pragma once
// Personal privacy (issue 42 sec. 2; docs/TRUST.md "Personal privacy"): per-agent sampling
// rates q_n and per-agent budgets, given as lists (one entry per agent) or as tiers.
//   - Agent n is selected by its own Poisson coin of probability q_n; the weighted sum is
//     divided by one public constant q_ref (default the mean q_n), never by q_n, so every
//     agent's contribution is at most w_max S / q_ref and the noise std z w_max S / q_ref keeps
//     the noise multiplier z for all. Agent n's release is then the Poisson-subsampled Gaussian
//     (q_n, z): its own inclusion is an independent coin of probability q_n, whatever the
//     others' (individualised sampling, Boenisch et al., "Have it your way: individualized
//     privacy assignment for DP-SGD", NeurIPS 2023). Dividing by q_n would make agent n's
//     sensitivity w_max S / q_n and understate the loss of every agent with q_n < q_ref.
//     [choice] The estimator is unbiased only where q_n = q_ref: an agent with a larger rate
//     weighs more, in expectation by q_n / q_ref.
//   - Tiers: tier i (from 1) holds fractions[i-1] of the N agents, tiers 1..i together exactly
//     floor(N (f_1 + ... + f_i) + 1/2), as timing.tiers (docs/TIME.md); agent n draws one 64-bit
//     key from the stream ("personal.tier", n) of run 0 of the seed, the agents ranked by
//     (key, n) fill tier 1, then tier 2, ... The rest form tier 0 (server.sampling_rate, no
//     budget). [choice] Drawn once per experiment, so agent n has the same tier in every run and
//     the per-tier columns average the same agents.
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "schema/fwd.hpp"

namespace fbosim::server {

/// The personal.* keys as given.
struct PersonalKeys {
  std::vector<double> sampling_rates;  ///< personal.sampling_rates: q_n, one per agent
  std::vector<double> budgets;         ///< personal.budgets: epsilon_n, one per agent
  std::optional<double> q_ref;         ///< personal.q_ref; none: the mean q_n
  std::vector<double> tier_fractions;  ///< personal.tiers.fractions
  std::vector<double> tier_rates;      ///< personal.tiers.sampling_rates (empty: q)
  std::vector<double> tier_budgets;    ///< personal.tiers.budgets (empty: none)

  /// Whether any personal key is given (absent: the homogeneous mechanism, byte-identical).
  bool any() const {
    return !sampling_rates.empty() || !budgets.empty() || q_ref.has_value() ||
           !tier_fractions.empty();
  }
};

/// The keys resolved for N agents: every agent's rate, budget and tier.
struct PersonalPrivacy {
  std::vector<double> rates;    ///< q_n, one per agent
  std::vector<double> budgets;  ///< epsilon_n (+inf: none); empty: no personal budgets
  std::vector<int> tiers;       ///< 0 (the rest, or lists), or i for the i-th tier
  int tier_count = 0;           ///< the number of tiers given (0 with lists)
  double q_ref = 0;             ///< the public divisor of the sum

  bool has_budgets() const { return !budgets.empty(); }
  double max_rate() const;
  static constexpr double kNoBudget = std::numeric_limits<double>::infinity();
};

/// Checks the keys against each other and N (std::invalid_argument naming the key and the
/// value): a list has one entry per agent; lists and tiers are exclusive; tiers give
/// fractions in (0, 1] summing to at most 1 and, per fraction, a rate and/or a budget.
void check_personal(const PersonalKeys& keys, int agents);
/// The rates, budgets and tiers of N agents with base rate q (tier 0 and agents without a
/// rate); tiers drawn from `seed` as the header says. Calls check_personal.
PersonalPrivacy resolve_personal(const PersonalKeys& keys, double q, int agents,
                                 std::uint64_t seed);

/// personal.sampling_rates, personal.budgets, personal.q_ref, personal.tiers.*.
const schema::Group<PersonalKeys>& personal_keys();

}  // namespace fbosim::server
