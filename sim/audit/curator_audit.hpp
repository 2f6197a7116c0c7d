#pragma once
// Empirical privacy audit of PO-GP-UCB's curator (Kharkovskii, Dai & Low 2020, Algorithm 1; the
// doubt of spec po-gp-ucb.md sec. 7.19), run by `fbosim audit` on a po_gp_ucb config: the
// config's dataset X (the objective's grid, normalised by curator.max_norm as a run does) and a
// neighbour X' whose row 0 moved by a unit vector (Definition 1), each released `trials` times
// by the real curator with independent projections. Statistic: s = |u^T Z| / |Z|_F with u a unit
// vector orthogonal to the all-ones vector and to the columns of the centred X, with weight on
// row 0; Z lies in the column space of the centred X~ = the centred X's, so s is rounding
// (~1e-16) for X and not for X'. Test "Z comes from X'" iff s > tau, tau the geometric midpoint
// of the gap between the largest null and the smallest neighbour statistic of the first half
// of the trials; the rates are measured on the second half with one-sided Clopper-Pearson upper
// bounds (Bonferroni over the two), so epsilon >= log((1 - delta - FNR) / FPR) holds with the
// stated confidence for any (epsilon, delta)-DP release (as run_audit does). The claimed
// (epsilon, delta) is the paper's Theorem 1 for one release.
#include <cstdint>
#include <string>

#include "sim/audit/privacy_audit.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::audit {

struct CuratorAuditResult {
  int trials = 0;  ///< per input, in the measuring half
  double threshold = 0;
  long long false_positives = 0;  ///< X trials with s > tau
  long long false_negatives = 0;  ///< X' trials with s <= tau
  double fpr = 0, fpr_upper = 0, fnr = 0, fnr_upper = 0;
  double epsilon_estimate = 0, epsilon_lower = 0;
  double epsilon_claimed = 0, delta_claimed = 0;  ///< Theorem 1's (curator.epsilon, .delta)
  double max_null = 0;                            ///< the largest s of X (measuring half)
  double min_neighbour = 0;                       ///< the smallest s of X' (measuring half)
  // The release audited.
  int rows = 0, dim = 0, r = 0;
  double sigma_min = 0, omega = 0;
  bool lifted = false;
  std::string lift;  ///< "paper" or "authors"
  bool violation() const { return epsilon_lower > epsilon_claimed; }
};

/// Throws std::invalid_argument for a config that is not po_gp_ucb or bad options.
CuratorAuditResult run_curator_audit(const config::ExperimentSpec& spec,
                                     const AuditOptions& options, std::uint64_t seed);

}  // namespace fbosim::audit
