#pragma once
// Empirical privacy audit of a config's server mechanism (one round of Algo. 1, lines 5-13).
// Two neighbouring inputs: D with a "canary" agent whose message sits exactly on the clipping
// bound S / sqrt(P), and D' without it. The other agents send nothing [choice: the worst case
// for the test; their messages would be identical in D and D' and only hide the canary]. The
// DE weights are those of round 1 with agent n in region n mod P, and the canary is the agent
// with the largest weight (w_max), so its mean shift is as large as the mechanism allows.
// Statistic: s = sum_i w_c^(i) <omega^(i), v / |v|>, the likelihood-ratio direction of the
// Gaussian mean shift the canary causes. Test "canary present" iff s > tau: its false-positive
// and false-negative rates bound epsilon from below, epsilon >= log((1 - delta - FNR) / FPR)
// (and with FPR and FNR swapped) for any (epsilon, delta)-DP mechanism (Kairouz et al. 2015;
// Jagielski, Ullman, Oprea 2020; Nasr et al. 2021). tau is chosen on the first half of the
// trials and the rates are measured on the second half, with one-sided Clopper-Pearson upper
// bounds at level (1 - confidence) / 2 each, so the reported lower bound holds with the stated
// confidence. The accountant's upper bound for one release at the config's delta is printed next
// to it; the audit exceeding it means the mechanism or the accountant is wrong.
#include <cstdint>
#include <string>

#include "sim/experiment/experiment_spec.hpp"

namespace fbosim::sim {

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
  bool violation() const { return epsilon_lower > epsilon_upper; }
};

/// Runs the audit; throws std::invalid_argument for bad options or a config without DP.
AuditResult run_audit(const ExperimentSpec& spec, const AuditOptions& options, std::uint64_t seed);

/// One-sided Clopper-Pearson upper bound on a binomial rate after k successes in n trials at
/// confidence level c (the beta quantile B^-1(c; k + 1, n - k); 1 when k = n).
double clopper_pearson_upper(long long k, long long n, double c);
/// The lower bound (B^-1(1 - c; k, n - k + 1); 0 when k = 0).
double clopper_pearson_lower(long long k, long long n, double c);

}  // namespace fbosim::sim
