#pragma once
// Empirical privacy audit of a config's server mechanism (one round of Algo. 1, lines 5-13).
// Two neighbouring inputs: D with a "canary" agent whose message sits exactly on the clipping
// bound S / sqrt(P), and D' without it (Poisson sampling, add/remove neighbours) or with the
// opposite message (fixed-size sampling, replace-one neighbours). The other agents send nothing
// [choice: the worst case for the test; their messages would be identical in D and D' and only
// hide the canary].
// The canary and the round whose DE weights are used (agent n in sub-region n mod P, rounds
// 0 .. rounds - 1) are those that move the release furthest in units of the noise:
// |(w_n^(i) (S / sqrt(P)) / (q sigma_i))_i|, at most 1 / z. A canary that carries w_max in one
// sub-region only (round 1 of DE: the other weights are ~exp(-15) smaller) shifts by
// 1 / (z sqrt(P)): with the noise halved that is 2 / (z sqrt(P)), the full sensitivity 1 / z at
// P = 4, so no audit of such a release can tell a halved mechanism from the accountant's bound.
// Once the schedule has made the weights uniform (a_t = 1), every agent carries w_max = 1/N in
// every sub-region and the shift is the full 1 / z; the audit picks such a round when the
// config releases one, and reports the fraction of 1 / z it reached otherwise.
// Statistic: s = sum_i (w_c^(i) / sigma_i^2) <omega^(i), v / |v|>, the likelihood ratio of the
// Gaussian mean shift the canary causes (a monotone function of it, also for the Poisson
// mixture (1 - q) N(0, .) + q N(shift, .)), on the coordinates of the sub-regions where the
// canary has weight; the other coordinates are noise that does not depend on the canary. Test
// "canary present" iff s > tau: its false-positive and false-negative rates bound epsilon from
// below, epsilon >= log((1 - delta - FNR) / FPR) (and with FPR and FNR swapped) for any (epsilon,
// delta)-DP mechanism (Kairouz et al. 2015; Jagielski, Ullman, Oprea 2020; Nasr et al. 2021). tau
// is chosen on the first half of the trials and the rates are measured on the second half, with
// one-sided Clopper-Pearson upper bounds at level (1 - confidence) / 2 each, so the reported lower
// bound holds with the stated confidence. The accountant's upper bound for one release at the
// config's delta is printed next to it; the audit exceeding it means the mechanism or the
// accountant is wrong.
#include <cstdint>
#include <string>

#include "sim/config/experiment_spec.hpp"

namespace fbosim::audit {

struct AuditOptions {
  int trials = 100000;       ///< per input (D and D'), split half for tau, half to measure
  double confidence = 0.95;  ///< of the Clopper-Pearson bounds
  int threads = 1;
  /// Multiplies the noise of the audited mechanism (not of the accountant): < 1 simulates a
  /// broken mechanism, to check that the audit catches it.
  double noise_scale = 1.0;
};

struct AuditResult {
  int trials = 0;                 ///< per input, in the measuring half
  double threshold = 0;           ///< tau
  long long false_positives = 0;  ///< D' trials with s > tau
  long long false_negatives = 0;  ///< D trials with s <= tau
  double fpr = 0, fpr_upper = 0;  ///< point estimate and Clopper-Pearson upper bound
  double fnr = 0, fnr_upper = 0;
  double epsilon_estimate = 0;  ///< from the point estimates
  double epsilon_lower = 0;     ///< from the upper bounds: holds with `confidence`
  double epsilon_upper = 0;     ///< the accountant's bound for one release
  double delta = 0;
  std::string accountant;
  int round = 0;   ///< the round whose DE weights the audit uses
  int canary = 0;  ///< the canary agent
  /// The canary's mean shift in noise standard deviations times z (noise_scale = 1): 1 when it
  /// carries w_max in every sub-region, the sensitivity the accountant assumes.
  double sensitivity_fraction = 0;
  bool violation() const { return epsilon_lower > epsilon_upper; }
};

/// Runs the audit; throws std::invalid_argument for bad options or a config without DP.
AuditResult run_audit(const config::ExperimentSpec& spec, const AuditOptions& options,
                      std::uint64_t seed);

/// One-sided Clopper-Pearson upper bound on a binomial rate after k successes in n trials at
/// confidence level c (the beta quantile B^-1(c; k + 1, n - k); 1 when k = n).
double clopper_pearson_upper(long long k, long long n, double c);
/// The lower bound (B^-1(1 - c; k, n - k + 1); 0 when k = 0).
double clopper_pearson_lower(long long k, long long n, double c);
/// The epsilon any (epsilon, delta)-DP mechanism must have for a test with these error rates:
/// max(log((1 - delta - fnr) / fpr), log((1 - delta - fpr) / fnr)), 0 where undefined (Kairouz
/// et al. 2015).
double epsilon_lower_bound(double fpr, double fnr, double delta);

}  // namespace fbosim::audit
